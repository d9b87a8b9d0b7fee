import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, type Service, test } from "./fixtures";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

interface Listing {
  items: { name: string }[];
}

/** Creates the folders under a fresh top folder, then moves them to the trash. */
async function trashFolders(service: Service, names: string[]) {
  const top = `Trash ${unique()}`;
  for (const name of names) await service.api("POST", "/files/folder", { path: `${top}/${name}` });
  await service.api("DELETE", "/files", { paths: names.map((n) => `${top}/${n}`) });
  return top;
}

/** Signs in through the printed URL (which lands on Files) and opens the trash. */
async function openTrash(page: Page, service: Service) {
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.getByRole("link", { name: "Trash" }).click();
  await expect(page.getByRole("heading", { name: "Trash", level: 1 })).toBeVisible();
}

test("a trashed folder is restored from the trash and is back in its folder", async ({
  page,
  service,
}) => {
  const top = await trashFolders(service, ["Keep me", "Leave me"]);
  await openTrash(page, service);

  await page.getByLabel("Filter by name or path").fill(top);
  await expect(page.getByRole("row")).toHaveCount(3);
  await page.getByRole("checkbox", { name: `Select ${top}/Keep me` }).check();
  await expect(page.getByText("1 selected")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByText("Restored “Keep me”", { exact: true })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: `Select ${top}/Keep me` })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: `Select ${top}/Leave me` })).toBeVisible();

  const listing = await service.api<Listing>("GET", `/files?path=${encodeURIComponent(top)}`);
  expect(listing.items.map((i) => i.name)).toEqual(["Keep me"]);
});

test("purging asks first, then deletes the item for good", async ({ page, service }) => {
  const top = await trashFolders(service, ["Purge me", "Spare me"]);
  await openTrash(page, service);
  await page.getByLabel("Filter by name or path").fill(top);
  await page.getByRole("checkbox", { name: `Select ${top}/Purge me` }).check();
  await page.getByRole("button", { name: "Purge…" }).click();

  const dialog = page.getByRole("alertdialog", { name: "Purge “Purge me” permanently?" });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("checkbox", { name: `Select ${top}/Purge me` })).toBeVisible();

  await page.getByRole("button", { name: "Purge…" }).click();
  await dialog.getByRole("button", { name: "Purge" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("checkbox", { name: `Select ${top}/Purge me` })).toHaveCount(0);

  const trash = await service.api<{ path: string }[]>("GET", "/files/trash");
  const mine = trash.map((i) => i.path).filter((p) => p.startsWith(`${top}/`));
  expect(mine).toEqual([`${top}/Spare me`]);
});

test("the filters narrow the trash by text and by folder, and say when nothing matches", async ({
  page,
  service,
}) => {
  const top = await trashFolders(service, ["Alpha report", "Beta notes"]);
  await openTrash(page, service);
  await page.getByLabel("Filter by name or path").fill(`${top}/alpha`);
  await expect(page.getByRole("checkbox", { name: `Select ${top}/Alpha report` })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: `Select ${top}/Beta notes` })).toHaveCount(0);

  await page.getByLabel("Filter by name or path").fill("");
  await page.getByLabel("Deleted from").selectOption(top);
  await expect(page.getByRole("row")).toHaveCount(3);
  await page.getByLabel("Deleted", { exact: true }).selectOption("24h");
  await expect(page.getByRole("row")).toHaveCount(3);

  await page.getByLabel("Filter by name or path").fill("no such thing anywhere");
  await expect(page.getByText("Nothing matches the filter")).toBeVisible();
  await page.getByRole("button", { name: "Clear the filter" }).click();
  await expect(page.getByLabel("Deleted from")).toHaveValue("");

  await page.getByRole("button", { name: "Dark theme" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expectNoAxeViolations(page);
});

/** Signs in (landing on Files), then opens the trash by URL, as a shared link would. */
async function openTrashAt(page: Page, service: Service, search = "") {
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/trash${search}`);
  await expect(page.getByRole("heading", { name: "Trash", level: 1 })).toBeVisible();
}

const searchParam = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

test("the filters live in the URL: a reload, back and forward keep them", async ({
  page,
  service,
}) => {
  const top = await trashFolders(service, ["Alpha report", "Beta notes"]);
  await openTrash(page, service);
  const text = page.getByLabel("Filter by name or path");
  await text.fill("alpha report");
  await expect.poll(() => searchParam(page, "q")).toBe("alpha report");
  await page.getByLabel("Deleted from").selectOption(top);
  await page.getByLabel("Deleted", { exact: true }).selectOption("24h");
  await expect.poll(() => searchParam(page, "folder")).toBe(top);
  expect(searchParam(page, "deleted")).toBe("24h");

  await page.reload();
  await expect(text).toHaveValue("alpha report");
  await expect(page.getByLabel("Deleted from")).toHaveValue(top);
  await expect(page.getByLabel("Deleted", { exact: true })).toHaveValue("24h");
  await expect(page.getByRole("checkbox", { name: `Select ${top}/Alpha report` })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: `Select ${top}/Beta notes` })).toHaveCount(0);

  await page.getByRole("link", { name: "Files" }).click();
  await expect(page).toHaveURL(/\/files/);
  await page.goBack();
  await expect(text).toHaveValue("alpha report");
  await expect(page.getByLabel("Deleted from")).toHaveValue(top);
  await page.goForward();
  await expect(page).toHaveURL(/\/files/);
  await page.goBack();

  // A filter that matches nothing, cleared: the URL forgets every part of it.
  await text.fill("no such thing anywhere");
  await page.getByRole("button", { name: "Clear the filter" }).click();
  await expect(text).toHaveValue("");
  await expect.poll(() => new URL(page.url()).search).toBe("");

  // A link with a filter opens filtered.
  await openTrashAt(page, service, `?q=${encodeURIComponent(`${top}/beta`)}`);
  await expect(page.getByRole("checkbox", { name: `Select ${top}/Beta notes` })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: `Select ${top}/Alpha report` })).toHaveCount(0);
});

test("a restore that had to rename an item says which, and to what", async ({ page, service }) => {
  const top = await trashFolders(service, ["Cut", "Notes"]);
  // Something new now holds the original path of "Cut".
  await service.api("POST", "/files/folder", { path: `${top}/Cut` });
  await openTrashAt(page, service, `?q=${encodeURIComponent(top)}`);
  await page.getByRole("checkbox", { name: "Select all shown" }).check();
  await page.getByRole("button", { name: "Restore" }).click();

  const report = page.getByRole("status").filter({ hasText: "Restored 2 items" });
  await expect(report).toContainText(
    `“${top}/Cut” is back as “${top}/Cut (restored)”: its path is taken.`,
  );
  await expect(report).not.toContainText("Notes”");
  const listing = await service.api<Listing>("GET", `/files?path=${encodeURIComponent(top)}`);
  expect(listing.items.map((i) => i.name).sort()).toEqual(["Cut", "Cut (restored)", "Notes"]);
});

test("arrow keys, Home and End move between rows, reaching rows not rendered yet", async ({
  page,
  service,
}) => {
  const names = Array.from({ length: 40 }, (_, i) => `Row ${String(i).padStart(2, "0")}`);
  const top = await trashFolders(service, names);
  await openTrashAt(page, service, `?q=${encodeURIComponent(top)}`);
  const first = page.getByRole("row").nth(1).getByRole("checkbox");
  await first.focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("row").nth(2).getByRole("checkbox")).toBeFocused();
  await page.keyboard.press("End");
  const focused = page.locator("tbody tr[data-index='39'] input[type=checkbox]");
  await expect(focused).toBeFocused();
  await expect(focused).toBeInViewport();
  await page.keyboard.press("Space");
  await expect(page.getByText("1 selected")).toBeVisible();
  await page.keyboard.press("Home");
  await expect(page.locator("tbody tr[data-index='0'] input[type=checkbox]")).toBeFocused();
});

test.describe("on a phone (390 × 844)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the trash keeps each name readable, drops secondary columns and wraps its filters", async ({
    page,
    service,
  }) => {
    const top = await trashFolders(service, ["A folder whose name is long", "Short"]);
    await openTrashAt(page, service, `?q=${encodeURIComponent(top)}`);
    const table = page.getByRole("table", { name: "Trashed items" });
    await expect(table.getByRole("columnheader", { name: "Name" })).toBeVisible();
    for (const secondary of ["Deleted from", "Size", "Purged"]) {
      await expect(table.getByRole("columnheader", { name: secondary })).toHaveCount(0);
    }
    const name = table.getByRole("rowheader", { name: /A folder whose name is long/ });
    expect((await name.boundingBox())?.width).toBeGreaterThan(200);
    for (const label of ["Filter by name or path", "Deleted", "Deleted from"]) {
      const box = await page.getByLabel(label, { exact: true }).boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.getByRole("checkbox", { name: `Select ${top}/Short` }).check();
    await expect(page.getByRole("button", { name: "Restore" })).toBeEnabled();
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Dark theme" }).click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expectNoAxeViolations(page);
  });
});
