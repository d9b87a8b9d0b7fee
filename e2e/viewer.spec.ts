import type { Page } from "@playwright/test";
import { makeClip, makePdf, makeTone } from "@/server/testing/media";
import { expect, expectNoAxeViolationsInThemes, type Service, test } from "./fixtures";

/* The console's media viewer (issue 21): video, audio, PDF and images, opened wherever a file is. */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

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
  await service.writeBytes(`${folder}/clip.mp4`, await makeClip());
  await openFolder(page, service, folder);
  // The original's link comes late, as on a busy machine: Play pressed meanwhile must not be lost
  // (it was: the button answered before there was anything to play).
  await page.route("**/v1/workspaces/*/transfers", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
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
  await service.writeBytes(`${folder}/clip.mp4`, await makeClip());
  await openFolder(page, service, folder);
  await viewByKeyboard(page, "clip.mp4");
  await expect(page.getByTestId("viewer-video")).toBeVisible();
  await expectNoAxeViolationsInThemes(page);
});

/** Pixels of the canvas something was drawn on (alpha above zero). */
const drawnPixels = (page: Page) =>
  page.getByTestId("waveform").evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext("2d");
    if (!ctx || canvas.width === 0) return 0;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) drawn++;
    return drawn;
  });

test("audio shows its waveform, drawn once the viewer asked for it", async ({ page, service }) => {
  const folder = `Viewer ${unique()}`;
  await service.writeBytes(`${folder}/tone.wav`, await makeTone());
  await openFolder(page, service, folder);
  const viewer = await viewByKeyboard(page, "tone.wav");
  await expect(viewer.getByRole("slider", { name: "Waveform of tone.wav" })).toBeVisible();
  await expect.poll(() => drawnPixels(page), { timeout: 30_000 }).toBeGreaterThan(100);
});

test("a PDF shows its second page", async ({ page, service }) => {
  const folder = `Viewer ${unique()}`;
  await service.writeBytes(`${folder}/script.pdf`, await makePdf(3));
  await openFolder(page, service, folder);
  const viewer = await viewByKeyboard(page, "script.pdf");
  await expect(viewer.getByTestId("page-number")).toHaveText("Page 1 of 3", { timeout: 30_000 });
  await page.keyboard.press("PageDown");
  await expect(viewer.getByTestId("page-number")).toHaveText("Page 2 of 3");
  const second = viewer.getByRole("img", { name: "Page 2 of script.pdf" });
  await expect(second).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(() => second.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
});

test("two versions of a clip compare side by side on one clock", async ({ page, service }) => {
  const folder = `Viewer ${unique()}`;
  await service.writeBytes(`${folder}/cut.mp4`, await makeClip({ pattern: "smptebars" }));
  await service.writeBytes(`${folder}/cut.mp4`, await makeClip());
  await openFolder(page, service, folder);
  await row(page, "cut.mp4").click();
  await page.getByRole("button", { name: "Details panel" }).click();
  const details = page.getByRole("complementary", { name: "Details" });
  await details.getByRole("tab", { name: "Versions" }).click();
  await details.getByRole("checkbox", { name: /^Compare cut\.mp4 \(live\)/ }).check();
  await details
    .getByRole("checkbox", { name: /^Compare / })
    .nth(1)
    .check();
  await details.getByRole("button", { name: "Compare the two ticked" }).click();

  const viewer = page.getByRole("dialog", { name: /^Compare: / });
  const left = viewer.getByTestId("compare-video-left");
  const right = viewer.getByTestId("compare-video-right");
  // The kept version plays once its proxy is rendered (the viewer asked for it).
  await expect(right).toBeVisible({ timeout: 45_000 });
  await expect(left).toBeVisible({ timeout: 45_000 });
  await viewer.getByRole("button", { name: "Play" }).click();
  await expect.poll(() => currentTime(page, "compare-video-left")).toBeGreaterThan(0.3);
  await expect.poll(() => currentTime(page, "compare-video-right")).toBeGreaterThan(0.3);
  // One side is heard.
  const muted = await Promise.all(
    [left, right].map((v) => v.evaluate((el: HTMLVideoElement) => el.muted)),
  );
  expect(muted).toEqual([false, true]);
});
