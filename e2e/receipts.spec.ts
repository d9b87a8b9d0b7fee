import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CreatedShare } from "@/contract/shares";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const TEXT = "Conform list, reel two.\n".repeat(500);
const SHA256 = createHash("sha256").update(TEXT).digest("hex");

test("a recipient's verified download and comment show in the sender's receipt, whose PDFs render (pdftoppm) and read back (pdftotext)", async ({
  browser,
  page,
  service,
}) => {
  // Two browsers and PDFs rendered in a thread: past the default minute on a shared machine.
  test.setTimeout(180_000);
  const top = `Receipt-${Date.now()}`;
  await service.writeFile(`${top}/conform.edl`, TEXT);
  const share = await service.api<CreatedShare>("POST", "/shares", {
    paths: [top],
    title: "Reel two conform",
    recipients: ["editor@example.com"],
    notify: false,
  });

  // The recipient, in a browser of their own: download with verification, then a comment.
  const recipient = await browser.newContext({ acceptDownloads: true });
  const theirs = await recipient.newPage();
  await theirs.goto(share.recipientLinks[0]!.url);
  const downloading = theirs.waitForEvent("download");
  await theirs.getByRole("button", { name: `Download ${top}/conform.edl` }).click();
  await downloading;
  await expect(
    theirs.getByRole("row", { name: /conform\.edl/ }).getByText("Verified"),
  ).toBeVisible();
  await theirs.getByRole("textbox", { name: "Comment" }).fill("Got it, thanks.");
  await theirs.getByRole("button", { name: "Add comment" }).click();
  await expect(theirs.getByText("Got it, thanks.")).toBeVisible();
  await recipient.close();

  // The sender, in the console: the share shows the comment, the receipt the verified delivery.
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/shares?share=${share.id}`);
  await expect(page.getByText("Got it, thanks.")).toBeVisible();
  await page.goto(`/shares?share=${share.id}&view=receipt`);
  await expect(page.getByTestId("verdict")).toHaveText("Verified");
  const recipients = page.getByRole("region", { name: "Recipients" });
  await expect(
    recipients.getByRole("listitem").filter({ hasText: "editor@example.com" }),
  ).toContainText("Verified");
  await expectNoAxeViolations(page);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-receipt-"));
  try {
    for (const button of ["Receipt PDF", "Delivery note"]) {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: button }).click(),
      ]);
      const pdf = path.join(dir, download.suggestedFilename());
      await download.saveAs(pdf);
      expect(fs.readFileSync(pdf).subarray(0, 5).toString()).toBe("%PDF-");
      // Page one rendered as a picture, as a PDF viewer would show it.
      execFileSync("pdftoppm", ["-png", "-r", "40", "-f", "1", "-l", "1", pdf, `${pdf}-page`]);
      const rendered = fs
        .readdirSync(dir)
        .filter((f) => f.startsWith(`${path.basename(pdf)}-page`));
      expect(rendered).toHaveLength(1);
      expect(fs.statSync(path.join(dir, rendered[0]!)).size).toBeGreaterThan(1000);
      const text = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" });
      expect(text).toContain("Reel two conform");
      expect(text).toContain("conform.edl");
      expect(text).toContain(SHA256);
      if (button === "Receipt PDF") expect(text).toContain("editor@example.com");
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a corrupted download then a clean one gives a verified verdict, and who holds which file shows in the console's matrix and in the CSV", async ({
  page,
  request,
  service,
}) => {
  test.setTimeout(180_000);
  const top = `Matrix-${Date.now()}`;
  await service.writeFile(`${top}/a.edl`, "alpha");
  await service.writeFile(`${top}/b.edl`, "bravo");
  const share = await service.api<CreatedShare>("POST", "/shares", {
    paths: [top],
    title: "Matrix check",
    recipients: ["ana@example.com"],
    notify: false,
  });
  const pub = `${service.apiUrl}/public/shares/${share.recipientLinks[0]!.url.split("/").at(-1)}`;
  const sha = (text: string) => createHash("sha256").update(text).digest("hex");
  /** One download through the data node, reporting the hash the engine "computed". */
  const take = async (paths: string[], reported: (path: string) => string) => {
    const started = await request.post(`${pub}/downloads`, { data: { paths } });
    expect(started.status()).toBe(201);
    const { transferId, transferSpec } = await started.json();
    for (const path of paths) {
      const bytes = await request.get(
        `${transferSpec.node.files}?path=${encodeURIComponent(path)}`,
        { headers: { Authorization: `Bearer ${transferSpec.token}` } },
      );
      expect(bytes.status()).toBe(200);
    }
    const done = await request.post(`${pub}/downloads/${transferId}/complete`, {
      data: { files: paths.map((path) => ({ path, sha256: reported(path) })) },
    });
    expect(done.status()).toBe(200);
  };
  const [a, b] = [`${top}/a.edl`, `${top}/b.edl`];
  await take([a, b], (p) => (p === a ? sha("alpha") : sha("corrupted")));

  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/shares?share=${share.id}&view=receipt`);
  await expect(page.getByTestId("verdict")).toHaveText("Verification failed");
  const matrix = page.getByRole("table", { name: /latest completed download of each file/ });
  await expect(matrix.getByRole("columnheader", { name: "ana@example.com" })).toBeVisible();
  await expect(matrix.getByRole("row", { name: /b\.edl/ })).toContainText("Failed verification");

  // The clean download of the same file supersedes the failure.
  await take([b], () => sha("bravo"));
  await page.reload();
  await expect(page.getByTestId("verdict")).toHaveText("Verified");
  await expect(matrix.getByRole("row", { name: /a\.edl/ })).toContainText("Verified");
  await expect(matrix.getByRole("row", { name: /b\.edl/ })).toContainText("Verified");
  await expect(matrix.getByRole("row", { name: /b\.edl/ })).not.toContainText("Failed");
  await expectNoAxeViolations(page);

  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Receipt CSV" }).click(),
  ]);
  const lines = fs.readFileSync((await csv.path())!, "utf8").split("\r\n");
  expect(lines[0]).toBe("recipient,path,size_bytes,sha256,status,downloaded_at,download_id");
  expect(lines.filter((l) => l.startsWith('"ana@example.com"'))).toEqual([
    expect.stringMatching(new RegExp(`^"ana@example.com","${a}",5,"${sha("alpha")}","verified",`)),
    expect.stringMatching(new RegExp(`^"ana@example.com","${b}",5,"${sha("bravo")}","verified",`)),
  ]);
});
