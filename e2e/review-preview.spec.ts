import type { Locator, Page } from "@playwright/test";
import type { Portal } from "@/contract/portals";
import { makeClip } from "@/server/testing/media";
import { expect, expectNoAxeViolationsInThemes, test } from "./fixtures";
import { sendThroughPortalPage } from "./support/portal-sender";

/* The review queue previews an upload's file inline, before the decision (issue 21). */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The media element's current time in `within`, read in the page. */
const currentTime = (within: Locator, testId: string) =>
  within.getByTestId(testId).evaluate((v: HTMLMediaElement) => v.currentTime);

/** Clicks `fraction` of the way along the scrub bar in `within`. */
async function scrubTo(page: Page, within: Locator, fraction: number) {
  const box = (await within.getByTestId("scrub-bar").boundingBox())!;
  await page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
}

test("the reviewer plays an uploaded clip inline, scrubs it, then approves it", async ({
  browser,
  page,
  service,
}) => {
  // A whole review: a portal upload, its render, the inline and full players, axe in two themes
  // at two widths, then the approval. On a loaded 2-core machine that can pass a minute.
  test.slow();
  const stamp = unique();
  const portal = await service.api<Portal>("POST", "/portals", {
    title: `Dailies ${stamp}`,
    targetPath: `Incoming-${stamp}`,
  });
  const sent = await sendThroughPortalPage(browser, portal, { name: "Ana" }, [
    { name: "take3.mp4", mimeType: "video/mp4", buffer: await makeClip({ pattern: "smptebars" }) },
  ]);
  await sent.context.close();

  await page.goto(service.signInUrl);
  await page.waitForURL(/\/files/);
  await page.goto(`/portals?view=review&portalId=${portal.id}`);

  // The first media file shows in the inspector at once, with no click.
  const inline = page.getByRole("region", { name: "Preview of take3.mp4" });
  await expect(inline.getByTestId("viewer-video")).toBeVisible();
  await inline.getByRole("button", { name: "Play" }).click();
  await expect.poll(() => currentTime(inline, "viewer-video")).toBeGreaterThan(0.2);
  // `k` pauses while focus is in the player (in the queue it is "previous upload").
  await page.keyboard.press("k");
  await expect(inline.getByRole("button", { name: "Play" })).toBeVisible();

  // A click three quarters along the bar lands at three quarters of the two seconds.
  await scrubTo(page, inline, 0.75);
  await expect.poll(() => currentTime(inline, "viewer-video")).toBeGreaterThan(1.3);
  expect(await currentTime(inline, "viewer-video")).toBeLessThan(1.7);
  await expect(inline.getByTestId("timecode")).toContainText(/^00:00:01:/);

  // Expand opens the full viewer where the inline player was.
  await inline.getByRole("button", { name: "Expand take3.mp4 in the viewer" }).click();
  const viewer = page.getByRole("dialog", { name: "take3.mp4" });
  await expect.poll(() => currentTime(viewer, "viewer-video")).toBeGreaterThan(1.3);
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();

  await expectNoAxeViolationsInThemes(page, [1440]);

  // At 390 px the upload opens as a sheet, and the player is in it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page
    .getByRole("feed")
    .locator("article[tabindex='0']")
    .getByText("Ana", { exact: true })
    .click();
  const sheet = page.getByRole("dialog", { name: "The active upload" });
  await expect(sheet.getByTestId("viewer-video")).toBeVisible();
  await expectNoAxeViolationsInThemes(page, [390]);
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();

  await page.setViewportSize({ width: 1440, height: 900 });
  await page
    .getByRole("button", { name: /^Approve/ })
    .first()
    .click();
  await expect(
    page.locator("[data-slot=toast]").filter({ hasText: "Approved: Ana" }),
  ).toBeVisible();
});
