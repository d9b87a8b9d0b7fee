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
