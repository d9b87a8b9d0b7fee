import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { deliveryLabel } from "@/contract/receipt-verdict";
import type { CreatedShare } from "@/contract/shares";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const ADDRESS = /\b\d{1,3}(\.\d{1,3}){3}\b|::1\b/;

test("the client receipt PDF shows the verdict, the workspace's name and non-Latin names and no address; the audit report has the addresses", async ({
  browser,
  page,
  service,
}) => {
  // The sender names the workspace and gives it a logo on the Settings page.
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expect(page.getByText("No logo: documents show the name")).toBeVisible();
  const brand = `Северный Свет ${Date.now()}`;
  await page.getByRole("textbox", { name: "Name" }).fill(brand);
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Name saved")).toBeVisible();
  const png = await sharp({
    create: { width: 240, height: 80, channels: 3, background: "#1d4ed8" },
  })
    .png()
    .toBuffer();
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
  await expect(page.getByRole("img", { name: "The workspace's logo" })).toBeVisible();
  await expectNoAxeViolations(page);

  // A share of a file named in four scripts; the recipient downloads it in a browser of their own.
  // A short folder, so the path fits its column uncut.
  const top = `R${Date.now() % 1000}`;
  const words = ["Ærø", "Łódź", "Москва", "東京", "ملف"];
  const name = `${words.join(" ")}.txt`;
  await service.writeFile(`${top}/${name}`, "Conform list, reel two.\n".repeat(50));
  const share = await service.api<CreatedShare>("POST", "/shares", {
    paths: [top],
    title: "Reel two 東京",
    recipients: ["editor@example.com"],
    notify: false,
  });
  const recipient = await browser.newContext({ acceptDownloads: true });
  const theirs = await recipient.newPage();
  await theirs.goto(share.recipientLinks[0]!.url);
  const downloading = theirs.waitForEvent("download");
  await theirs.getByRole("button", { name: `Download ${top}/${name}` }).click();
  await downloading;
  await expect(theirs.getByRole("row", { name: /Москва/ }).getByText("Verified")).toBeVisible();
  await recipient.close();

  await page.goto(`/shares?share=${share.id}&view=receipt`);
  await expect(page.getByTestId("verdict")).toHaveText(deliveryLabel.verified);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-receipt-pdf-"));
  const read = async (button: string) => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: button }).click(),
    ]);
    const pdf = path.join(dir, download.suggestedFilename());
    await download.saveAs(pdf);
    return execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" });
  };
  try {
    const client = await read("Client receipt PDF");
    expect(client).toContain(deliveryLabel.verified);
    expect(client).toContain(brand);
    expect(client).toContain("Reel two 東京");
    for (const word of words) expect(client).toContain(word);
    expect(client).toContain("editor@example.com");
    expect(client).not.toMatch(ADDRESS);

    const audit = await read("Audit report PDF");
    expect(audit).toContain("Audit report");
    expect(audit).toContain(deliveryLabel.verified);
    expect(audit).toMatch(ADDRESS);
    for (const word of words) expect(audit).toContain(word);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
