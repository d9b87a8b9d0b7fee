import type { Locator, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, type Service, signIn, test } from "./fixtures";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const width = 390;

test.use({ viewport: { width, height: 844 } });

interface Seeded {
  folder: string;
  child: string;
  trashed: string;
  hookUrl: string;
  webhookId: string;
}

let seeded: Promise<Seeded> | undefined;

/** One set of content for every page, made through the API once per worker. */
function seed(service: Service): Promise<Seeded> {
  seeded ??= (async () => {
    const folder = `Narrow ${unique()}`;
    const child = "Final delivery for the client, colour graded";
    const trashed = `Narrow trashed ${unique()}`;
    await service.api("POST", "/files/folder", { path: `${folder}/${child}` });
    await service.writeFile(`${folder}/notes.txt`, "notes");
    await service.api("POST", "/files/folder", { path: `${folder}/${trashed}` });
    await service.api("DELETE", "/files", { paths: [`${folder}/${trashed}`] });
    await service.api("POST", "/files/operations", {
      kind: "copy",
      paths: [`${folder}/notes.txt`],
      destination: `${folder}/${child}`,
    });
    const hookUrl = `http://127.0.0.1:9/narrow-${unique()}`;
    const hook = await service.api<{ id: string }>("POST", "/webhooks", {
      url: hookUrl,
      events: ["member.joined"],
    });
    const { eventId } = await service.api<{ eventId: string }>("POST", `/webhooks/${hook.id}/test`);
    return { folder, child, trashed, hookUrl, webhookId: hook.id, eventId };
  })();
  return seeded;
}

/**
 * What a person at 390 px needs: the page's heading, its primary content readable (in view and
 * not squeezed to a sliver), nothing wider than the window, and no accessibility violations.
 */
async function expectUsableAtWidth(page: Page, heading: string, primary: Locator) {
  await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeAttached();
  await expect(primary).toBeVisible();
  const box = await primary.boundingBox();
  expect(box, "the primary content has a box").not.toBeNull();
  expect(box!.x, "the primary content starts inside the window").toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, "the primary content ends inside the window").toBeLessThanOrEqual(
    width,
  );
  expect(box!.width, "the primary content is not squeezed to a sliver").toBeGreaterThan(80);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, "nothing is wider than the window").toBeLessThanOrEqual(width);
  await expectNoAxeViolations(page);
}

interface PageCase {
  name: string;
  heading: string;
  url(s: Seeded): string;
  primary(page: Page, s: Seeded): Locator;
}

const pages: PageCase[] = [
  {
    name: "Files",
    heading: "Files",
    url: (s) => `/files?path=${encodeURIComponent(s.folder)}`,
    primary: (page, s) => page.getByRole("row", { name: new RegExp(s.child) }).getByText(s.child),
  },
  {
    name: "Trash",
    heading: "Trash",
    url: () => "/trash",
    primary: (page, s) => page.getByText(s.trashed, { exact: true }).first(),
  },
  {
    name: "Webhooks",
    heading: "Webhooks",
    url: () => "/webhooks",
    primary: (page, s) => page.getByRole("link", { name: s.hookUrl }),
  },
  {
    name: "a webhook's deliveries",
    heading: "Deliveries",
    url: (s) => `/webhooks/${s.webhookId}`,
    primary: (page) =>
      page.getByRole("row").filter({ hasText: "webhook.test" }).first().getByText("webhook.test"),
  },
  {
    name: "Events",
    heading: "Events",
    url: () => "/events",
    // The newest test event is the seeded one; its id is a secondary column a narrow window drops.
    primary: (page) =>
      page.getByRole("row").filter({ hasText: "webhook.test" }).first().getByText("webhook.test"),
  },
  {
    name: "Jobs",
    heading: "Jobs",
    url: () => "/jobs",
    primary: (page) => page.getByRole("row").filter({ hasText: "notes.txt" }).first(),
  },
  {
    name: "Transfers",
    heading: "Transfers",
    url: () => "/transfers",
    primary: (page) => page.getByRole("combobox", { name: "Status" }),
  },
  {
    name: "Shares",
    heading: "Shares",
    url: () => "/shares",
    primary: (page) => page.getByRole("combobox", { name: "Status" }),
  },
  {
    name: "Portals",
    heading: "Portals",
    url: () => "/portals",
    // The header's button (an empty list offers another below).
    primary: (page) => page.getByRole("button", { name: "New portal" }).first(),
  },
  {
    name: "the review queue",
    heading: "Portals",
    url: () => "/portals?view=review",
    primary: (page) => page.getByRole("combobox", { name: "Status" }),
  },
  {
    name: "Needs attention",
    heading: "Needs attention",
    url: () => "/attention",
    primary: (page) => page.getByRole("main"),
  },
  {
    name: "Settings",
    heading: "Settings",
    url: () => "/settings",
    primary: (page) => page.getByLabel("Name", { exact: true }),
  },
  {
    name: "Usage",
    heading: "Usage",
    url: () => "/usage",
    primary: (page) => page.getByRole("heading", { name: "Usage is not available yet" }),
  },
];

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`at 390 px, ${colorScheme}`, () => {
    test.use({ colorScheme });

    for (const c of pages) {
      test(`${c.name} is usable`, async ({ page, service }) => {
        const s = await seed(service);
        await signIn(page, service);
        await page.goto(c.url(s));
        await expectUsableAtWidth(page, c.heading, c.primary(page, s));
      });
    }

    test("Connect is usable", async ({ page }) => {
      await page.goto("/connect");
      await expectUsableAtWidth(page, "Connect to Consign", page.getByLabel("API key"));
    });
  });
}

test("the menu button opens the areas as a drawer that traps focus, closes on Escape and navigates", async ({
  page,
  service,
}) => {
  await signIn(page, service);
  // While the drawer is open the rest of the page is hidden from assistive technology.
  const menu = page.getByRole("button", { name: "Open navigation", includeHidden: true });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  // The sidebar is not shown at this width; the drawer is the way to the areas.
  await expect(page.getByRole("link", { name: "Trash" })).toBeHidden();

  await menu.click();
  const drawer = page.getByRole("dialog", { name: "Consign" });
  await expect(drawer.getByRole("link", { name: "Trash" })).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expectNoAxeViolations(page);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    const inside = await drawer.evaluate((el) => el.contains(document.activeElement));
    expect(inside, "focus stays in the drawer").toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(menu).toBeFocused();
  await expect(menu).toHaveAttribute("aria-expanded", "false");

  await menu.click();
  await drawer.getByRole("link", { name: "Trash" }).click();
  await expect(page).toHaveURL(/\/trash/);
  await expect(drawer).toBeHidden();
  await expect(page.getByRole("heading", { name: "Trash", level: 1 })).toBeVisible();
  await expect(menu).toBeFocused();
});

test("at 360 px the header keeps the menu, the theme choice and the key within the window", async ({
  page,
  service,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, service);
  for (const name of ["Open navigation", "Dark theme", "Sign out"]) {
    const box = await page.getByRole("button", { name }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.x + box!.width, `${name} is inside the window`).toBeLessThanOrEqual(360);
  }
  await expect(page.getByRole("button", { name: /My workspace|all scopes/ })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
