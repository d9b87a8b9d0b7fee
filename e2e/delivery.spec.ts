import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import type { Receipt } from "@/contract/receipts";
import type { CreatedShare } from "@/contract/shares";
import { expect, test } from "./fixtures";

const sha256 = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");

/** Each stored entry of a ZIP (as the data node writes them): name -> SHA-256, read by `unzip`. */
function zipEntries(file: string): Record<string, string> {
  const names = execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n");
  return Object.fromEntries(names.map((n) => [n, sha256(execFileSync("unzip", ["-p", file, n]))]));
}

test("download all gives one ZIP whose entries are the share's files, and the receipt shows it verified", async ({
  browser,
  service,
}) => {
  const top = `Zip-${Date.now()}`;
  const files = {
    "reel1.mov": "Reel one, graded.\n".repeat(5000),
    "notes.txt": "Notes for the client",
    "stills/frame.txt": "a still",
  };
  for (const [name, text] of Object.entries(files)) await service.writeFile(`${top}/${name}`, text);
  const share = await service.api<CreatedShare>("POST", "/shares", {
    paths: [top],
    title: "Graded reels",
    recipients: ["client@example.com"],
    notify: false,
  });
  // Recipients given: only personal links, no link for anyone.
  expect(share.url).toBeNull();

  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const downloads: string[] = [];
  page.on("download", (d) => downloads.push(d.suggestedFilename()));
  await page.goto(share.recipientLinks[0]!.url);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download all" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("Graded reels.zip");
  await expect(page.getByText("Verified", { exact: true })).toHaveCount(3);
  expect(downloads).toEqual(["Graded reels.zip"]);
  // Named from the files' common folder down, each entry the bytes shared.
  const expected = Object.fromEntries(
    Object.entries(files).map(([name, text]) => [name, sha256(text)]),
  );
  expect(zipEntries((await download.path())!)).toEqual(expected);

  const receipt = await service.api<Receipt>("GET", `/shares/${share.id}/receipt`);
  expect(receipt.downloads).toHaveLength(1);
  expect(receipt.downloads[0]).toMatchObject({
    verified: true,
    fileCount: 3,
    who: { email: "client@example.com" },
  });
  expect(receipt.recipients[0]).toMatchObject({ downloaded: true, verified: true });
  await context.close();
});
