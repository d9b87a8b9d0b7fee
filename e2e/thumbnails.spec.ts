import type { Page } from "@playwright/test";
import { flatImage, makeClip, makePdf, makeTone } from "@/server/testing/media";
import { expect, expectNoAxeViolationsInThemes, type Service, test } from "./fixtures";

/* Thumbnails in the Files grid and list: every kind, asked for once, then kept by the browser. */

// Media made with ffmpeg and first renders on two shared cores: more than the default minute.
test.describe.configure({ timeout: 150_000 });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A folder holding one file of each kind the service draws, made here. */
async function mediaFolder(service: Service) {
  const folder = `Thumbs ${unique()}`;
  await service.writeBytes(`${folder}/still.png`, await flatImage(320, 180, "#c85028"));
  await service.writeBytes(
    `${folder}/clip.mp4`,
    await makeClip({ size: "160x90", seconds: 1, audio: false }),
  );
  await service.writeBytes(`${folder}/brief.pdf`, await makePdf(1, "Brief"));
  await service.writeBytes(`${folder}/tone.wav`, await makeTone(1));
  return folder;
}

/**
 * The folder in the grid view, chosen first on the top folder (the choice is kept): opened in
 * the list and switched, its rows would ask for the same thumbnails first.
 */
async function openGrid(page: Page, service: Service, folder: string) {
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.getByRole("button", { name: "Grid view" }).click();
  await page.goto(`/files?path=${encodeURIComponent(folder)}`);
  await expect(page.getByRole("grid")).toBeVisible();
}

/** Waits until the tile of `name` shows a decoded thumbnail. */
async function expectThumbnail(page: Page, name: string) {
  const img = page.locator(`[data-thumb="${name}"] img`);
  await expect(img).toBeVisible();
  await expect
    .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
}

/** Counts thumbnail answers that came over the network rather than from the browser's cache. */
async function countThumbnailFetches(page: Page, folder: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const counts = { network: 0, cache: 0, immutable: 0 };
  cdp.on("Network.responseReceived", (e) => {
    const url = new URL(e.response.url);
    // The top folder's files (other journeys') are not this folder's.
    if (!url.pathname.endsWith("/files/preview")) return;
    if (!url.searchParams.get("path")?.startsWith(`${folder}/`)) return;
    // Asked for by content (`v`): kept for a year, not only the minute a path alone gets.
    const caching = Object.entries(e.response.headers).find(([k]) => /^cache-control$/i.test(k));
    if (/\bimmutable\b/.test(caching?.[1] ?? "")) counts.immutable++;
    if (e.response.fromDiskCache) counts.cache++;
    else counts.network++;
  });
  return counts;
}

test("the grid shows a thumbnail of an image, a video, a PDF and an audio file, in both themes", async ({
  page,
  service,
}) => {
  const folder = await mediaFolder(service);
  await openGrid(page, service, folder);
  for (const name of ["still.png", "clip.mp4", "brief.pdf", "tone.wav"])
    await expectThumbnail(page, name);
  await expectNoAxeViolationsInThemes(page);

  // The list shows them too, small beside the name.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole("button", { name: "List view" }).click();
  await expectThumbnail(page, "clip.mp4");
});

test("a second visit of a grid takes every thumbnail from the browser's cache", async ({
  page,
  service,
}) => {
  const folder = await mediaFolder(service);
  // Three copies with both names kept: 32 tiles, every one on screen at 1440 × 900.
  for (let i = 0; i < 3; i++) {
    const { items } = await service.api<{ items: { path: string }[] }>(
      "GET",
      `/files?path=${encodeURIComponent(folder)}`,
    );
    const job = await service.api<{ id: string }>("POST", "/files/operations", {
      kind: "copy",
      paths: items.map((item) => item.path),
      destination: folder,
      onConflict: "keepBoth",
    });
    await expect
      .poll(
        async () =>
          (await service.api<{ status: string }>("GET", `/files/operations/${job.id}`)).status,
      )
      .toBe("completed");
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  const counts = await countThumbnailFetches(page, folder);
  await openGrid(page, service, folder);
  const tiles = page.locator("[data-thumb] img");
  await expect(tiles).toHaveCount(32);
  await expect.poll(() => counts.network).toBe(32);

  // Another page, then the folder again in a new document: nothing is held in memory.
  await page.goto("/trash");
  await page.goto(`/files?path=${encodeURIComponent(folder)}`);
  await expect(tiles).toHaveCount(32);
  await expect.poll(() => counts.cache).toBe(32);
  expect(counts).toEqual({ network: 32, cache: 32, immutable: 64 });
});
