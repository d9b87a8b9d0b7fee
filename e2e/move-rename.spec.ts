import type { Page } from "@playwright/test";
import type { FileListing } from "@/contract/files";
import { expect, expectNoAxeViolations, type Service, settleAnimations, test } from "./fixtures";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function openFolder(page: Page, signInUrl: string, path: string) {
  await page.goto(signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/files?path=${encodeURIComponent(path)}`);
  await expect(page.getByRole("grid")).toBeVisible();
}

const row = (page: Page, name: string) =>
  page.getByRole("row", {
    name: new RegExp(`(^|\\s)${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s|$)`),
  });

/** The names in a folder, as the service lists them. */
async function namesIn(service: Service, path: string) {
  const listing = await service.api<FileListing>(
    "GET",
    `/files?path=${encodeURIComponent(path)}&count=100`,
  );
  return listing.items.map((entry) => entry.name).sort();
}

/** Colours fade into a new theme: axe reads them once the transitions end. */
async function darkTheme(page: Page) {
  await page.getByRole("button", { name: "Dark theme" }).click();
  await settleAnimations(page);
}

test("dragging a file onto a folder moves it; a conflict is resolved by keeping both", async ({
  page,
  service,
}) => {
  const top = `Drag ${unique()}`;
  await service.writeFile(`${top}/notes.txt`, "the one being moved");
  await service.writeFile(`${top}/Dest/notes.txt`, "already there");
  await openFolder(page, service.signInUrl, top);

  await row(page, "notes.txt").dragTo(row(page, "Dest"));
  const dialog = page.getByRole("dialog", { name: "1 item is already at the destination" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("listitem")).toContainText("notes.txt");
  await expect(dialog.getByRole("combobox", { name: "For every conflict" })).toHaveValue(
    "keepBoth",
  );
  await dialog.getByRole("button", { name: "Continue the move" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "View job" }).first()).toBeVisible();

  // The folder refreshes when the job has ended, not when it was accepted.
  await expect(row(page, "notes.txt")).toHaveCount(0);
  await expect.poll(() => namesIn(service, `${top}/Dest`)).toHaveLength(2);
  expect(await namesIn(service, `${top}/Dest`)).toContain("notes.txt");

  // A breadcrumb takes a drop too: the kept copy goes back up, with no conflict this time.
  await row(page, "Dest").dblclick();
  await expect(page.getByRole("grid", { name: `Contents of ${top}/Dest` })).toBeVisible();
  const kept = (await namesIn(service, `${top}/Dest`)).find((name) => name !== "notes.txt")!;
  const crumb = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", {
    name: top,
  });
  await row(page, kept).dragTo(crumb);
  await expect(row(page, kept)).toHaveCount(0);
  await expect.poll(() => namesIn(service, top)).toEqual(["Dest", kept]);
});

test("Alt (Option) held at the drop copies instead of moving", async ({ page, service }) => {
  const top = `Alt ${unique()}`;
  await service.writeFile(`${top}/clip.txt`, "a clip");
  await service.api("POST", "/files/folder", { path: `${top}/Dest` });
  await openFolder(page, service.signInUrl, top);

  // dragTo takes no modifier: the same drag by hand, Alt pressed before the drop.
  await row(page, "clip.txt").hover();
  await page.mouse.down();
  const box = (await row(page, "Dest").boundingBox())!;
  await page.mouse.move(box.x + 60, box.y + box.height / 2, { steps: 5 });
  await page.keyboard.down("Alt");
  await page.mouse.move(box.x + 70, box.y + box.height / 2, { steps: 2 });
  await page.mouse.up();
  await page.keyboard.up("Alt");
  await expect(page.getByText("Copying “clip.txt”…").first()).toBeVisible();
  await expect.poll(() => namesIn(service, `${top}/Dest`)).toEqual(["clip.txt"]);
  // The folder's own count follows, and the original stays.
  await expect(row(page, "Dest")).toContainText("1 item");
  await expect(row(page, "clip.txt")).toBeVisible();
});

test("Copy to… picks a folder with the keyboard and leaves the original", async ({
  page,
  service,
}) => {
  const top = `Copy ${unique()}`;
  await service.writeFile(`${top}/cut.txt`, "a cut");
  await service.api("POST", "/files/folder", { path: `${top}/Archive/2026` });
  await openFolder(page, service.signInUrl, top);

  await row(page, "cut.txt").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Copy to…" }).click();
  const dialog = page.getByRole("dialog", { name: "Copy “cut.txt” to…" });
  await expect(dialog).toContainText(top);
  // Into Archive, then 2026, from the keyboard.
  const folders = dialog.getByRole("list", { name: `Folders in ${top}` });
  await folders.getByRole("button", { name: "Archive" }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("list", { name: `Folders in ${top}/Archive` })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "2026" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toContainText("No folders inside.");
  await dialog.getByRole("button", { name: "Copy here" }).click();
  await expect(dialog).toBeHidden();

  await expect.poll(() => namesIn(service, `${top}/Archive/2026`)).toEqual(["cut.txt"]);
  await expect(row(page, "cut.txt")).toBeVisible();
});

test("batch rename previews the new names as the pattern is typed, then applies them", async ({
  page,
  service,
}) => {
  const top = `Batch ${unique()}`;
  for (const name of ["shot_a.txt", "shot_b.txt", "shot_c.txt"])
    await service.writeFile(`${top}/${name}`, name);
  await openFolder(page, service.signInUrl, top);

  await row(page, "shot_a.txt").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page
    .getByRole("region", { name: "Selection" })
    .getByRole("button", { name: "Rename…" })
    .click();
  const dialog = page.getByRole("dialog", { name: "Rename 3 items" });
  const preview = dialog.getByRole("table", { name: "Preview of the new names" });
  await expect(preview.getByRole("row", { name: /shot_a\.txt/ })).toContainText("(unchanged)");

  await dialog.getByRole("textbox", { name: "Find" }).fill("shot");
  await dialog.getByRole("textbox", { name: "Replace with" }).fill("take");
  await expect(preview.getByRole("row", { name: /shot_b\.txt/ })).toContainText("take_b.txt");
  await expect(dialog).toContainText("3 to rename");

  // Two names made the same are a conflict, shown on the row with the reason; Apply waits.
  await dialog.getByRole("checkbox", { name: "Regular expression" }).check();
  await dialog.getByRole("textbox", { name: "Find" }).fill("shot_[ab]");
  await expect(preview.getByRole("row", { name: /shot_a\.txt/ })).toContainText("Conflict");
  await expect(dialog.getByRole("button", { name: "Apply" })).toBeEnabled();
  await dialog.getByRole("button", { name: "Apply" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Resolve the conflicts first");

  await dialog.getByRole("textbox", { name: "Find" }).fill("^shot");
  await expect(dialog).toContainText("3 to rename");
  await dialog.getByRole("button", { name: "Apply" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Renamed 3 items").first()).toBeVisible();
  await expect(row(page, "take_c.txt")).toBeVisible();
  await expect(row(page, "shot_a.txt")).toHaveCount(0);
});

test("a bad regular expression is named at the Find field", async ({ page, service }) => {
  const top = `Regex ${unique()}`;
  for (const name of ["one.txt", "two.txt"]) await service.writeFile(`${top}/${name}`, name);
  await openFolder(page, service.signInUrl, top);

  await row(page, "one.txt").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page
    .getByRole("region", { name: "Selection" })
    .getByRole("button", { name: "Rename…" })
    .click();
  const dialog = page.getByRole("dialog", { name: "Rename 2 items" });
  await dialog.getByRole("checkbox", { name: "Regular expression" }).check();
  const find = dialog.getByRole("textbox", { name: "Find" });
  await find.fill("(one");
  await expect(find).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByRole("alert").first()).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Apply" })).toBeDisabled();

  await find.fill("(one)");
  await expect(find).not.toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByRole("button", { name: "Apply" })).toBeEnabled();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("both dialogs fit and pass axe, light and dark", async ({ page, service }) => {
    const top = `Phone ${unique()}`;
    for (const name of ["a_long_name_for_a_phone_screen.txt", "b.txt"])
      await service.writeFile(`${top}/${name}`, name);
    await service.api("POST", "/files/folder", { path: `${top}/Folder` });
    await openFolder(page, service.signInUrl, top);

    // One item has the most actions (Move to… and Copy to… among them): still one line.
    await row(page, "b.txt").getByRole("checkbox").click();
    const bar = page.getByRole("region", { name: "Selection" });
    expect((await bar.boundingBox())?.height).toBeLessThan(56);
    await page.getByRole("checkbox", { name: "Select all" }).click();
    await bar.getByRole("button", { name: "Rename…" }).click();
    const rename = page.getByRole("dialog", { name: "Rename 3 items" });
    await rename.getByRole("textbox", { name: "Prefix" }).fill("new_");
    const preview = rename.getByRole("table", { name: "Preview of the new names" });
    await expect(preview.getByRole("row", { name: /^b\.txt/ })).toContainText("new_b.txt");
    await expect(preview.getByRole("columnheader", { name: "Old name" })).toBeVisible();
    await expect(preview.getByRole("columnheader", { name: "New name" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await expectNoAxeViolations(page);
    await rename.getByRole("button", { name: "Cancel" }).click();

    await bar.getByRole("button", { name: "Move to…" }).click();
    const move = page.getByRole("dialog", { name: "Move 3 items to…" });
    await expect(move.getByRole("button", { name: "Move here" })).toBeVisible();
    await expectNoAxeViolations(page);
    await move.getByRole("button", { name: "Cancel" }).click();

    await darkTheme(page);
    await bar.getByRole("button", { name: "Move to…" }).click();
    await expect(move).toBeVisible();
    await expectNoAxeViolations(page);
    await move.getByRole("button", { name: "Cancel" }).click();
    await bar.getByRole("button", { name: "Rename…" }).click();
    await rename.getByRole("textbox", { name: "Suffix" }).fill("_x");
    await expect(preview.getByRole("row", { name: /^b\.txt/ })).toContainText("b_x.txt");
    await expectNoAxeViolations(page);
  });
});
