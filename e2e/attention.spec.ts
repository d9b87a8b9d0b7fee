import type { Browser } from "@playwright/test";
import type { Attention } from "@/contract/attention";
import type { Portal } from "@/contract/portals";
import { expect, expectNoAxeViolationsInThemes, type Service, test } from "./fixtures";
import { sendThroughPortalPage, textFiles } from "./support/portal-sender";

/** One upload of one text file through the portal page. */
async function sendThroughPortal(browser: Browser, portal: Portal, name: string) {
  const sent = await sendThroughPortalPage(
    browser,
    portal,
    { name },
    textFiles({ [`${name.toLowerCase()}.txt`]: `rushes from ${name}` }),
  );
  await sent.context.close();
}

const awaiting = async (service: Service) =>
  (await service.api<Attention>("GET", "/attention")).uploads!.total;

test("the needs-attention list and the navigation counts follow uploads as they arrive and are decided", async ({
  browser,
  page,
  service,
}) => {
  // Two browsers, four uploads' worth of pages and axe in both themes at two widths.
  test.setTimeout(180_000);
  const stamp = Date.now();
  const portal = await service.api<Portal>("POST", "/portals", {
    title: `Attention intake ${stamp}`,
    targetPath: `Attention-${stamp}`,
  });
  // Other journeys may have left uploads waiting: counts are read against what was there.
  const before = await awaiting(service);

  await page.goto(service.signInUrl);
  await page.waitForURL(/\/files/);
  const nav = page.getByRole("navigation", { name: "Areas" });
  await nav.getByRole("link", { name: /^Needs attention/ }).click();
  await expect(page).toHaveURL(/\/attention$/);
  await expect(page.getByRole("heading", { name: "Needs attention", level: 1 })).toBeVisible();
  const uploads = page.getByTestId("attention-uploads");
  if ((await service.api<Attention>("GET", "/attention")).total === 0)
    await expect(page.getByRole("heading", { name: "Nothing needs you right now" })).toBeVisible();
  else await expect(uploads.getByTestId("attention-uploads-total")).toHaveText(String(before));

  // Two senders upload while the member looks: the page and both counts follow without a reload.
  await sendThroughPortal(browser, portal, "Ana");
  await expect(uploads.getByTestId("attention-uploads-total")).toHaveText(String(before + 1));
  await expect(nav.getByTestId("nav-count-uploads")).toHaveText(`${before + 1} awaiting review`);
  await sendThroughPortal(browser, portal, "Ben");
  await expect(nav.getByTestId("nav-count-uploads")).toHaveText(`${before + 2} awaiting review`);
  const anaEntry = uploads.getByRole("link", { name: new RegExp(`^Ana\\s*${portal.title}`) });
  await expect(anaEntry).toBeVisible();
  const total = Number(
    (await nav.getByTestId("nav-count-attention").textContent())!.replace(/\D/g, ""),
  );
  expect(total).toBeGreaterThanOrEqual(before + 2);
  await expectNoAxeViolationsInThemes(page);

  // An entry opens the review queue on its portal; a decision there lowers the counts at once.
  await anaEntry.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/portals\\?.*portalId=${portal.id}`));
  const feed = page.getByRole("feed");
  await expect(feed.getByRole("article")).toHaveCount(2);
  // The queue shows the newest first: Ben's upload is the active one.
  await expect(feed.locator("article[tabindex='0']")).toContainText("Ben");
  await page.keyboard.press("a");
  await expect(feed.getByRole("article")).toHaveCount(1);
  await expect(nav.getByTestId("nav-count-uploads")).toHaveText(`${before + 1} awaiting review`);
  await expect(nav.getByTestId("nav-count-attention")).toHaveText(`${total - 1} need attention`);

  await nav.getByRole("link", { name: /^Needs attention/ }).click();
  await expect(uploads.getByTestId("attention-uploads-total")).toHaveText(String(before + 1));
  await expect(uploads.getByRole("link", { name: /^Ana/ })).toBeVisible();
  await expect(uploads.getByRole("link", { name: /^Ben/ })).toHaveCount(0);
});

test("a key that reads none of a section's areas is told what it cannot see", async ({
  page,
  service,
}) => {
  const key = await service.createKey(["webhooks:manage"]);
  await page.goto(`${service.origin}/#key=${key}`);
  await expect(page).toHaveURL(/\/files/);
  await page.goto("/attention");
  await expect(page.getByRole("heading", { name: "Needs attention", level: 1 })).toBeVisible();
  await expect(page.getByText(/This key's scopes do not show: uploads to review/)).toBeVisible();
  await expect(page.getByTestId("attention-uploads")).toHaveCount(0);
});
