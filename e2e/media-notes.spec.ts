import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { StartedPortalUpload } from "@/contract/portal-public";
import type { Portal } from "@/contract/portals";
import type { Share } from "@/contract/shares";
import { expect, expectNoAxeViolationsInThemes, type Service, test } from "./fixtures";

/* Time-coded notes (issue 21): a note at a time opens the viewer there; a note attaches a time. */

/** A 3-second 160x90 H.264 clip with a tone: an original the browser plays at once. */
function clip() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-e2e-media-"));
  const file = path.join(dir, "clip.mp4");
  try {
    execFileSync("ffmpeg", [
      ...["-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=25:duration=3"],
      ...["-f", "lavfi", "-i", "sine=duration=3", "-c:v", "libx264", "-preset", "ultrafast"],
      ...["-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", "-movflags", "+faststart", file],
    ]);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function sharedClip(service: Service, folder: string) {
  const file = `${folder}/clip.mp4`;
  await service.writeBytes(file, clip());
  const share = await service.api<Share>("POST", "/shares", { paths: [file], openLink: true });
  return { file, share };
}

const videoTime = (page: import("@playwright/test").Page) =>
  page.getByTestId("viewer-video").evaluate((v: HTMLVideoElement) => v.currentTime);

test("a time-coded share comment opens the viewer at its time, and a new comment attaches where the viewer was", async ({
  page,
  service,
}) => {
  const { file, share } = await sharedClip(service, "Notes");
  await service.api("POST", `/shares/${share.id}/comments`, {
    body: "Flash frame",
    anchor: { path: file, timeMs: 1500, page: null },
  });
  await page.goto(service.signInUrl);
  await page.waitForURL(/\/files/);
  await page.goto(`/shares?share=${share.id}`);

  await page.getByRole("button", { name: "Open clip.mp4 at 00:00:01.5" }).click();
  await expect(page.getByTestId("viewer-video")).toBeVisible();
  await expect.poll(() => videoTime(page)).toBeCloseTo(1.5, 1);
  // The file's notes are markers on the scrub bar; one jumps there.
  const marker = page.getByRole("button", { name: /Go to the note at 00:00:01:12: Flash frame/ });
  await expect(marker).toBeVisible();
  await page.getByTestId("scrub-bar").click({ position: { x: 2, y: 8 } });
  await expect.poll(() => videoTime(page)).toBeLessThan(1);
  await marker.click();
  await expect.poll(() => videoTime(page)).toBeCloseTo(1.5, 1);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("viewer-video")).toBeHidden();

  // Where the viewer was is offered to the next comment, at the file's frame rate.
  const attach = page.getByRole("checkbox", { name: /At 00:00:01:12 in clip\.mp4/ });
  await expect(attach).toBeVisible();
  await expectNoAxeViolationsInThemes(page);
  await attach.check();
  await page.getByLabel("Add a comment").fill("And the sound drops here");
  await page.getByRole("button", { name: "Comment", exact: true }).click();
  // The comment as listed (the field may still hold the text for a moment).
  await expect(
    page.getByRole("paragraph").filter({ hasText: "And the sound drops here" }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Open clip.mp4 at 00:00:01.5" })).toHaveCount(2);
  const comments = await service.api<{ items: { body: string; anchor: unknown }[] }>(
    "GET",
    `/shares/${share.id}/comments`,
  );
  expect(comments.items.map((c) => c.anchor)).toEqual([
    { path: file, timeMs: 1500, page: null },
    { path: file, timeMs: 1500, page: null },
  ]);
});

test("a time-coded review note opens the viewer at its time, and a new note attaches where the viewer was", async ({
  page,
  service,
}) => {
  const portal = await service.api<Portal>("POST", "/portals", {
    title: "Note dailies",
    targetPath: "Incoming/Note dailies",
  });
  const bytes = clip();
  const res = await fetch(`${service.apiUrl}/public/portals/${portal.slug}/uploads`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      senderName: "Ana Lima",
      files: [{ path: "clip.mp4", size: bytes.length }],
    }),
  });
  const started = (await res.json()) as StartedPortalUpload;
  const file = `${started.transferSpec.destinationRoot}/clip.mp4`;
  // The clip in the upload's folder, where the node puts it: a note may point at it.
  await service.writeBytes(file, bytes);
  await service.api("POST", `/portal-uploads/${started.uploadId}/notes`, {
    body: "Flash frame",
    anchor: { path: file, timeMs: 1500, page: null },
  });
  await page.goto(service.signInUrl);
  await page.waitForURL(/\/files/);
  await page.goto(`/portals?view=review&portalId=${portal.id}&status=uploading`);

  await page.getByRole("button", { name: "Open clip.mp4 at 00:00:01.5" }).click();
  // No size in hand for the original: the viewer asks for the proxy and plays it once rendered.
  await expect(page.getByTestId("viewer-video")).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => videoTime(page), { timeout: 30_000 }).toBeCloseTo(1.5, 1);
  await expect(
    page.getByRole("button", { name: /Go to the note at 00:00:01:12: Flash frame/ }),
  ).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("viewer-video")).toBeHidden();

  await page.getByRole("checkbox", { name: /At 00:00:01:12 in clip\.mp4/ }).check();
  await page.getByLabel("Add a note").fill("Sound drops here");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByText("Sound drops here")).toBeVisible();
  await expect(page.getByRole("button", { name: "Open clip.mp4 at 00:00:01.5" })).toHaveCount(2);
});

test("a recipient previews a clip (its time advances) before downloading it, and the preview is not a download", async ({
  browser,
  service,
}) => {
  const { file, share } = await sharedClip(service, "Preview");
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(share.url!);
  const row = page.getByRole("row", { name: /clip\.mp4/ });
  await expect(row).toBeVisible();

  await row.getByRole("button", { name: `Preview ${file}` }).click();
  const dialog = page.getByRole("dialog", { name: "clip.mp4" });
  await expect(dialog).toBeVisible();
  // The proxy is queued by the first ask and rendered by the service's job; the page polls.
  const video = dialog.getByTestId("preview-video");
  await expect(video).toBeVisible({ timeout: 60_000 });
  await expect(video).toHaveAttribute("src", /\/v1\/public\/media\//);
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime))
    .toBeGreaterThan(0.5);
  await video.evaluate((v: HTMLVideoElement) => v.pause());
  await expectNoAxeViolationsInThemes(page);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  const before = await service.api<Share>("GET", `/shares/${share.id}`);
  expect(before.downloadCount).toBe(0);

  const downloading = page.waitForEvent("download");
  await row.getByRole("button", { name: `Download ${file}` }).click();
  expect((await downloading).suggestedFilename()).toBe("clip.mp4");
  await expect(row.getByText("Verified")).toBeVisible();
  await context.close();
});
