import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
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

test("a sign-in holds in every tab of the browser session, and a sign-out in one ends it in all", async ({
  browser,
  service,
}) => {
  const context = await browser.newContext();
  const first = await context.newPage();
  await first.goto(service.signInUrl);
  await expect(first).toHaveURL(/\/files/);
  // Not written to localStorage: the key lives only as long as the browser session's tabs.
  expect(await first.evaluate(() => JSON.stringify(localStorage))).not.toContain("svc_sk_");

  const second = await context.newPage();
  await second.goto("/shares");
  await expect(second.getByRole("heading", { name: "Shares", exact: true })).toBeVisible();
  await expect(second).toHaveURL(/\/shares/);

  await second.getByRole("button", { name: "Sign out" }).click();
  await expect(second.getByRole("heading", { name: "Connect to Consign" })).toBeVisible();
  await expect(first.getByRole("heading", { name: "Connect to Consign" })).toBeVisible();
  // A third tab finds nobody signed in.
  const third = await context.newPage();
  await third.goto("/files");
  await expect(third.getByRole("heading", { name: "Connect to Consign" })).toBeVisible();
  await context.close();
});

test("every console address the README names opens; an unknown one says so inside the console", async ({
  page,
  service,
}) => {
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  const readme = fs.readFileSync(path.join(import.meta.dirname, "..", "README.md"), "utf8");
  const addresses = [...readme.matchAll(/\(`(\/[a-z][a-z/]*)`\)/g)].map((m) => m[1]!);
  expect(addresses).toContain("/portals/review");
  for (const address of addresses) {
    await page.goto(address);
    await expect(page.getByRole("navigation", { name: "Areas" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Page not found" })).toHaveCount(0);
  }
  await page.goto("/portals/review");
  await expect(page).toHaveURL(/\/portals\?view=review/);

  for (const address of ["/no-such-area", "/no/such/page"]) {
    await page.goto(address);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    // The app shell stays: the areas, and a way back.
    await expect(page.getByRole("navigation", { name: "Areas" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to Files" })).toHaveAttribute("href", "/files");
  }
  await page.getByRole("link", { name: "Go to Files" }).click();
  await expect(page).toHaveURL(/\/files$/);
  await expect(page.getByRole("heading", { name: "Page not found" })).toHaveCount(0);
});
