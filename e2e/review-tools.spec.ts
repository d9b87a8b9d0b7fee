import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PortalUploadsPage } from "@/contract/portal-review";
import type { Portal, PortalUpload } from "@/contract/portals";
import { expect, expectNoAxeViolations, type Service, signIn, test } from "./fixtures";
import { ffmpegFile } from "./support/media";
import { sendByApi, sendThroughPortalPage, sha256 } from "./support/portal-sender";

/* What the reviewer needs to decide (issue 20): each file's media and SHA-256, search, bulk, ZIP. */

/** Two seconds of a test pattern with a tone: real media for ffprobe. */
const clip = (name: string) =>
  ffmpegFile(name, [
    ...["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=2"],
    ...["-f", "lavfi", "-i", "sine=duration=2", "-c:v", "mpeg4", "-c:a", "aac", "-shortest"],
  ]);

const newPortal = (service: Service, title: string) =>
  service.api<Portal>("POST", "/portals", { title, targetPath: `Incoming/${title}` });

const uploadsOf = async (service: Service, portalId: string) =>
  (await service.api<PortalUploadsPage>("GET", `/portal-uploads?portalId=${portalId}`)).items;

test("the inspector shows each file's type, duration and resolution, and that its SHA-256 matches the sender's", async ({
  browser,
  page,
  service,
}) => {
  const portal = await newPortal(service, `Media ${Date.now()}`);
  const video = clip("A001_C001.mov");
  const sent = await sendThroughPortalPage(browser, portal, { name: "Ana Lima" }, [
    { name: "A001_C001.mov", mimeType: "video/quicktime", buffer: video },
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Take 3 is the one.") },
  ]);
  await sent.context.close();
  // The probe is a job on the service: other journeys' jobs may be ahead of it.
  await expect
    .poll(async () => (await uploadsOf(service, portal.id))[0]?.files[0]?.media?.width ?? null, {
      timeout: 30_000,
    })
    .toBe(64);
  const [upload] = await uploadsOf(service, portal.id);
  expect(upload!.files[0]!.senderSha256).toBe(sha256(video));

  await signIn(page, service);
  await page.goto(`/portals?view=review&portalId=${portal.id}`);
  const files = page.getByRole("region", { name: "The upload’s files" });
  const clipRow = files.getByRole("row", { name: /A001_C001\.mov/ });
  await expect(clipRow).toContainText("mov · mpeg4, aac");
  await expect(clipRow).toContainText("0:02");
  await expect(clipRow).toContainText("64×48");
  await expect(clipRow).toContainText("Matches");
  await expect(clipRow.getByTitle(sha256(video))).toBeVisible();
  const notesRow = files.getByRole("row", { name: /notes\.txt/ });
  await expect(notesRow).toContainText("text/plain");
  await expect(notesRow).toContainText("Matches");

  // At 390 px the upload opens as a sheet, and the table is still there to read (it scrolls
  // sideways), light and dark.
  await page.setViewportSize({ width: 390, height: 844 });
  await page
    .getByRole("feed")
    .locator("article[tabindex='0']")
    .getByText("Ana Lima", { exact: true })
    .click();
  await expect(page.getByRole("dialog", { name: "The active upload" })).toBeVisible();
  await clipRow.scrollIntoViewIfNeeded();
  await expect(clipRow).toContainText("64×48");
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(page);
  }
});

test("the queue searches by sender or portal, and the search stays in the address", async ({
  page,
  service,
}) => {
  const stamp = Date.now();
  const dailies = await newPortal(service, `Dailies ${stamp}`);
  const sound = await newPortal(service, `Sound ${stamp}`);
  await sendByApi(service, dailies, `Ana ${stamp}`, { "a.txt": Buffer.from("a") });
  await sendByApi(service, dailies, `Ben ${stamp}`, { "b.txt": Buffer.from("b") });
  await sendByApi(service, sound, `Cleo ${stamp}`, { "c.txt": Buffer.from("c") });

  await signIn(page, service);
  await page.goto("/portals?view=review");
  const rows = page.getByRole("feed").getByRole("article");
  const search = page.getByRole("searchbox", { name: "Sender or portal" });
  await search.fill(`ben ${stamp}`);
  await expect(page).toHaveURL(new RegExp(`q=ben(\\+|%20)${stamp}`));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`Ben ${stamp}`);
  await search.fill(`Sound ${stamp}`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`Cleo ${stamp}`);
  await search.fill(`Dailies ${stamp}`);
  await expect(rows).toHaveCount(2);
  // The address holds it: a reload shows the same.
  await page.reload();
  await expect(search).toHaveValue(`Dailies ${stamp}`);
  await expect(rows).toHaveCount(2);
  await search.fill(`nobody ${stamp}`);
  await expect(page.getByText("No uploads match")).toBeVisible();
});

test("two uploads are approved in one request from the selection bar", async ({
  page,
  service,
}) => {
  const stamp = Date.now();
  const portal = await newPortal(service, `Bulk ${stamp}`);
  const one = await sendByApi(service, portal, "Ana", { "a.txt": Buffer.from("a") });
  const two = await sendByApi(service, portal, "Ben", { "b.txt": Buffer.from("b") });
  await sendByApi(service, portal, "Cleo", { "c.txt": Buffer.from("c") });

  await signIn(page, service);
  await page.goto(`/portals?view=review&portalId=${portal.id}`);
  const rows = page.getByRole("feed").getByRole("article");
  await expect(rows).toHaveCount(3);
  const reviews: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/review")) reviews.push(r.url());
  });
  // Newest first: Cleo, Ben, Ana. Ben, then Shift-click Ana: both.
  await page.getByRole("checkbox", { name: "Select Ben’s upload" }).click();
  await page.getByRole("checkbox", { name: "Select Ana’s upload" }).click({ modifiers: ["Shift"] });
  const bar = page.getByRole("toolbar", { name: "The selected uploads" });
  await expect(bar).toContainText("2 uploads selected");
  // The bar is reached with the keyboard: its note, then Approve.
  await bar.getByRole("textbox", { name: /Note for the selected uploads/ }).focus();
  await page.keyboard.type("Both good");
  await page.keyboard.press("Tab");
  await expect(bar.getByRole("button", { name: "Approve 2" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Cleo");
  await expect(bar).toBeHidden();
  expect(reviews).toEqual([expect.stringMatching(/\/portal-uploads\/review$/)]);
  const statuses = (await uploadsOf(service, portal.id)).map((u: PortalUpload) => [
    u.id,
    u.status,
    u.reviewNote,
  ]);
  expect(statuses).toEqual(
    expect.arrayContaining([
      [one.uploadId, "approved", "Both good"],
      [two.uploadId, "approved", "Both good"],
    ]),
  );
});

test("an upload downloads as one ZIP whose entries are its files", async ({ page, service }) => {
  const portal = await newPortal(service, `Zip ${Date.now()}`);
  const files = { "a.txt": Buffer.from("first file"), "sub/b.txt": Buffer.from("second") };
  const sent = await sendByApi(service, portal, "Dana", files);

  await signIn(page, service);
  await page.goto(`/portals?view=review&portalId=${portal.id}`);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download ZIP" }).click();
  const download = await downloading;
  const top = path.basename(sent.folder);
  expect(download.suggestedFilename()).toBe(`${top}.zip`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-e2e-zip-"));
  try {
    const zip = path.join(dir, "upload.zip");
    await download.saveAs(zip);
    const entries = execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" })
      .split("\n")
      .filter((e) => e && !e.endsWith("/"))
      .sort();
    expect(entries).toEqual([`${top}/a.txt`, `${top}/sub/b.txt`]);
    for (const [p, bytes] of Object.entries(files))
      expect(sha256(execFileSync("unzip", ["-p", zip, `${top}/${p}`]))).toBe(sha256(bytes));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
