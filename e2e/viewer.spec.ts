import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import type { Portal } from "@/contract/portals";
import { expect, expectNoAxeViolationsInThemes, type Service, test } from "./fixtures";

/* The console's media viewer (issue 21): video, audio, PDF and images, opened wherever a file is. */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Media made by ffmpeg for the test: tiny, so the journeys stay fast on two cores. */
function ffmpeg(name: string, args: string[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-e2e-viewer-"));
  const file = path.join(dir, name);
  try {
    execFileSync("ffmpeg", ["-v", "error", ...args, file]);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Two seconds of a test pattern with a tone, H.264 and AAC in MP4: the browser plays it. */
const clip = (pattern = "testsrc") =>
  ffmpeg("clip.mp4", [
    ...["-f", "lavfi", "-i", `${pattern}=size=160x90:rate=24:duration=2`],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=2"],
    ...["-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac"],
    ...["-shortest", "-movflags", "+faststart"],
  ]);

async function openFolder(page: Page, service: Service, folder: string) {
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/files?path=${encodeURIComponent(folder)}`);
  await expect(page.getByRole("grid")).toBeVisible();
}

const row = (page: Page, name: string) =>
  page.getByRole("row", { name: new RegExp(`\\b${name.replace(".", "\\.")}\\b`) });

/** The media element's current time, read in the page. */
const currentTime = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((v: HTMLMediaElement) => v.currentTime);

/** Opens a file of the folder in the viewer by keyboard: select its row, then Enter. */
async function viewByKeyboard(page: Page, name: string) {
  await row(page, name).click();
  await page.keyboard.press("Enter");
  const viewer = page.getByRole("dialog", { name });
  await expect(viewer).toBeVisible();
  return viewer;
}

test("a video plays at once on its original, seeks on the scrub bar and steps by frames", async ({
  page,
  service,
}) => {
  const folder = `Viewer ${unique()}`;
  await service.writeBytes(`${folder}/clip.mp4`, clip());
  await openFolder(page, service, folder);
  const viewer = await viewByKeyboard(page, "clip.mp4");

  await viewer.getByRole("button", { name: "Play" }).click();
  await expect.poll(() => currentTime(page, "viewer-video")).toBeGreaterThan(0.2);
  await page.keyboard.press("k");
  await expect(viewer.getByRole("button", { name: "Play" })).toBeVisible();

  // A click three quarters along the bar lands at three quarters of the two seconds.
  const bar = viewer.getByTestId("scrub-bar");
  const box = (await bar.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
  await expect.poll(() => currentTime(page, "viewer-video")).toBeGreaterThan(1.3);
  expect(await currentTime(page, "viewer-video")).toBeLessThan(1.7);

  const before = await currentTime(page, "viewer-video");
  await page.keyboard.press(",");
  await expect.poll(() => currentTime(page, "viewer-video")).toBeLessThan(before);
  await page.keyboard.press("Home");
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();
});

test("an image zooms and fits again by keyboard", async ({ page, service }) => {
  const folder = `Viewer ${unique()}`;
  await service.writeImage(`${folder}/frame.png`, 320, 180);
  await openFolder(page, service, folder);
  const viewer = await viewByKeyboard(page, "frame.png");
  await expect(viewer.getByTestId("viewer-image")).toBeVisible();
  await page.keyboard.press("+");
  await page.keyboard.press("+");
  await expect(viewer.getByText("156 %")).toBeVisible();
  await page.keyboard.press("0");
  await expect(viewer.getByText("100 %")).toBeVisible();
});

test("the viewer passes axe, light and dark, at 1440 and 390 px", async ({ page, service }) => {
  const folder = `Viewer ${unique()}`;
  await service.writeBytes(`${folder}/clip.mp4`, clip());
  await openFolder(page, service, folder);
  await viewByKeyboard(page, "clip.mp4");
  await expect(page.getByTestId("viewer-video")).toBeVisible();
  await expectNoAxeViolationsInThemes(page);
});

/** A sender's browser of their own sends `files` through an open portal's page. */
async function sendThroughPortal(browser: Browser, portal: Portal, files: Record<string, Buffer>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(portal.url);
  await page.getByLabel("Name").fill("Ana");
  await page.getByLabel("Email").fill("ana@example.com");
  await page
    .getByLabel("Choose files")
    .setInputFiles(
      Object.entries(files).map(([name, buffer]) => ({ name, mimeType: "video/mp4", buffer })),
    );
  await page.getByRole("button", { name: /^Upload/ }).click();
  await expect(page.getByRole("heading", { name: "Your files were received" })).toBeVisible({
    timeout: 30_000,
  });
  await context.close();
}

test("the reviewer previews an uploaded clip, then approves it", async ({
  browser,
  page,
  service,
}) => {
  const stamp = unique();
  const portal = await service.api<Portal>("POST", "/portals", {
    title: `Dailies ${stamp}`,
    targetPath: `Incoming-${stamp}`,
  });
  await sendThroughPortal(browser, portal, { "take3.mp4": clip("smptebars") });

  await page.goto(service.signInUrl);
  await page.waitForURL(/\/files/);
  await page.goto(`/portals?view=review&portalId=${portal.id}`);
  await page.getByRole("button", { name: "Preview take3.mp4" }).click();
  const viewer = page.getByRole("dialog", { name: "take3.mp4" });
  await viewer.getByRole("button", { name: "Play" }).click();
  await expect.poll(() => currentTime(page, "viewer-video")).toBeGreaterThan(0.2);
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();

  await page
    .getByRole("button", { name: /^Approve/ })
    .first()
    .click();
  await expect(
    page.locator("[data-slot=toast]").filter({ hasText: "Approved: Ana" }),
  ).toBeVisible();
});
