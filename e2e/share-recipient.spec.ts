import { createHash } from "node:crypto";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import type { Receipt } from "@/contract/receipts";
import type { CreatedShare } from "@/contract/shares";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const CONTENT = "Final grade, reel one.\n".repeat(2000);
const sha256 = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");

async function checkAxe(page: Page) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoAxeViolations(page);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
}

test("a recipient unlocks a personal link, downloads with verification and comments; the receipt shows it", async ({
  browser,
  service,
}) => {
  const top = `Share-${Date.now()}`;
  await service.writeFile(`${top}/reel1.mov`, CONTENT);
  await service.writeFile(`${top}/notes.txt`, "Notes for the client");
  const share = await service.api<CreatedShare>("POST", "/shares", {
    paths: [top],
    title: "Final grade",
    message: "Here is the final grade.",
    password: "correct horse battery",
    recipients: ["client@example.com"],
    notify: false,
  });
  const link = share.recipientLinks[0]!.url;

  // The recipient: another browser, no key, no console session.
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on("response", (r) => {
    if (r.request().resourceType() === "script") scripts.push(r.url());
  });
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Final grade" })).toBeVisible();
  // The light entry: none of the console's code.
  expect(scripts.some((u) => /\/assets\/(main|vendor)-/.test(u))).toBe(false);
  await checkAxe(page);

  const password = page.getByLabel("Password");
  await password.fill("not the password");
  await page.getByRole("button", { name: "Open" }).click();
  await expect(page.getByText("That password is not right")).toBeVisible();
  await password.fill("correct horse battery");
  await page.getByRole("button", { name: "Open" }).click();

  const row = page.getByRole("row", { name: /reel1\.mov/ });
  await expect(row).toBeVisible();
  await expect(page.getByRole("row", { name: /notes\.txt/ })).toBeVisible();
  await checkAxe(page);

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: `Download ${top}/reel1.mov` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("reel1.mov");
  expect(sha256(fs.readFileSync((await download.path())!))).toBe(sha256(CONTENT));
  await expect(row.getByText("Verified")).toBeVisible();

  // A selection: both files in one transfer and one ZIP, each entry hashed and verified.
  await page.getByRole("checkbox", { name: "Select all files" }).check();
  const saved: string[] = [];
  page.on("download", (d) => saved.push(d.suggestedFilename()));
  await page.getByRole("button", { name: "Download selected (2)" }).click();
  await expect(page.getByText("Verified")).toHaveCount(2);
  expect(saved).toEqual(["Final grade.zip"]);

  await page.getByRole("textbox", { name: "Comment" }).fill("Received, looks great.");
  await page.getByRole("button", { name: "Add comment" }).click();
  await expect(page.getByText("Received, looks great.")).toBeVisible();
  await expect(page.getByText("client@example.com")).toBeVisible();
  await checkAxe(page);

  const receipt = await service.api<Receipt>("GET", `/shares/${share.id}/receipt`);
  expect(receipt.downloads).toHaveLength(2);
  expect(receipt.integrity).toBe("verified");
  expect(receipt.downloads.find((d) => d.fileCount === 1)).toMatchObject({
    verified: true,
    who: { email: "client@example.com" },
    files: [{ path: `${top}/reel1.mov`, sha256: sha256(CONTENT), matched: true }],
  });
  expect(receipt.recipients[0]).toMatchObject({
    email: "client@example.com",
    viewed: true,
    downloaded: true,
    verified: true,
  });
  expect(receipt.timeline.map((e) => e.type)).toEqual(
    expect.arrayContaining(["viewed", "password_failed", "downloaded", "commented"]),
  );
  const comments = await service.api<{ items: { body: string; author: { email: string } }[] }>(
    "GET",
    `/shares/${share.id}/comments`,
  );
  expect(comments.items).toMatchObject([
    { body: "Received, looks great.", author: { email: "client@example.com" } },
  ]);
  await context.close();
});

test("a link used up by its one download shows a clear page on the next visit", async ({
  browser,
  service,
}) => {
  const top = `Once-${Date.now()}`;
  await service.writeFile(`${top}/a.txt`, "a");
  const share = await service.api<CreatedShare>("POST", "/shares", {
    paths: [top],
    maxDownloads: 1,
  });
  const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  await page.goto(share.url!);
  await page.getByRole("button", { name: "Download all" }).click();
  await expect(page.getByText("Verified")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "This link has been used up" })).toBeVisible();
  await checkAxe(page);
});

test("a revoked link shows a clear page", async ({ browser, service }) => {
  const top = `Revoked-${Date.now()}`;
  await service.writeFile(`${top}/a.txt`, "a");
  const share = await service.api<CreatedShare>("POST", "/shares", { paths: [top] });
  await service.api("DELETE", `/shares/${share.id}`);
  const page = await (await browser.newContext()).newPage();
  await page.goto(share.url!);
  await expect(page.getByRole("heading", { name: "This link was withdrawn" })).toBeVisible();
  await checkAxe(page);
});

test("repeated wrong passwords make the page wait before the next try; images show thumbnails", async ({
  browser,
  service,
}) => {
  const top = `Locked-${Date.now()}`;
  await service.writeFile(`${top}/a.txt`, "a");
  await service.writeImage(`${top}/still.png`, 640, 360);
  const share = await service.api<CreatedShare>("POST", "/shares", {
    paths: [top],
    password: "correct horse battery",
  });
  const page = await (await browser.newContext()).newPage();
  await page.goto(share.url!);
  const password = page.getByLabel("Password");
  const open = page.getByRole("button", { name: "Open" });
  for (let i = 0; i < 5; i++) {
    await password.fill(`wrong ${i}`);
    await open.click();
    await expect(page.getByText("That password is not right")).toBeVisible();
  }
  await password.fill("correct horse battery");
  await open.click();
  await expect(page.getByText(/Too many wrong passwords.*try again in \d+ s/)).toBeVisible();
  await expect(open).toBeDisabled();
  // The wait over, the right password opens the share.
  await expect(open).toBeEnabled({ timeout: 5000 });
  await open.click();
  await expect(page.getByRole("row", { name: /a\.txt/ })).toBeVisible();
  // An image shows its thumbnail, fetched with the access token the password bought.
  const thumb = page.getByRole("row", { name: /still\.png/ }).locator("img");
  await expect
    .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  await checkAxe(page);
});

test("a big share lists its first 200 files at once and the rest on Show more; Select all covers every file", async ({
  browser,
  service,
}) => {
  const top = `Big-${Date.now()}`;
  await service.seed(top, 250);
  const share = await service.api<CreatedShare>("POST", "/shares", { paths: [top] });
  const page = await (await browser.newContext()).newPage();
  await page.goto(share.url!);
  const rows = page.getByRole("checkbox", { name: /^Select (?!all)/ });
  await expect(rows).toHaveCount(200);
  const more = page.getByRole("button", { name: /^Show \d+ more \(200 of \d+ shown\)$/ });
  const total = Number(/of (\d+) shown/.exec((await more.textContent()) ?? "")![1]);
  expect(total).toBeGreaterThan(200);
  await page.getByRole("checkbox", { name: "Select all files" }).check();
  await expect(page.getByRole("button", { name: `Download selected (${total})` })).toBeVisible();
  await more.click();
  await expect(rows).toHaveCount(total);
  await expect(page.getByRole("button", { name: /^Show \d+ more/ })).toHaveCount(0);
  await checkAxe(page);
});
