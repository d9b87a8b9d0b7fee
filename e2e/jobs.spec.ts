import type { Page, Request } from "@playwright/test";
import { makeClip } from "@/server/testing/media";
import {
  expect,
  expectNoAxeViolations,
  type Service,
  settleAnimations,
  signIn,
  test,
} from "./fixtures";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

interface Listing {
  total: number;
}

/** Every request the page makes that changes files: a bulk job's start, a DELETE, a restore. */
function recordWrites(page: Page) {
  const writes: Request[] = [];
  page.on("request", (r) => {
    if (r.method() !== "GET" && /\/files(\/|$|\?)/.test(new URL(r.url()).pathname)) writes.push(r);
  });
  return {
    bulkStarts: () =>
      writes.filter(
        (r) => r.method() === "POST" && new URL(r.url()).pathname.endsWith("/files/bulk"),
      ),
    deletes: () => writes.filter((r) => r.method() === "DELETE"),
    restores: () => writes.filter((r) => /\/files\/trash\/[^/]+\/restore$/.test(r.url())),
    all: () => writes,
  };
}

const total = async (service: Service, path: string) =>
  (await service.api<Listing>("GET", `/files?path=${encodeURIComponent(path)}&count=1`)).total;

test("select all and Delete trash a 100,000-entry folder as one job; the job centre watches it and Undo brings everything back", async ({
  page,
  service,
}) => {
  test.setTimeout(1100_000);
  const top = `Bulk ${unique()}`;
  await service.seed(top, 100_000);
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/files?path=${encodeURIComponent(top)}`);
  await expect(page.getByText("100,000 items")).toBeVisible();

  const writes = recordWrites(page);
  await page.getByRole("row", { name: /dir_0000049/ }).click();
  await page.keyboard.press("ControlOrMeta+a");
  await expect(page.getByRole("region", { name: "Selection" })).toContainText("100,000 selected");
  await page.keyboard.press("Delete");

  const started = page.getByText("Moving 100,000 items to the trash…");
  await expect(started).toBeVisible();
  // One request started the work; the browser sent no DELETE and no page of paths.
  expect(writes.bulkStarts()).toHaveLength(1);
  expect(writes.bulkStarts()[0]!.postDataJSON()).toEqual({
    action: "trash",
    selection: { folder: top, allExcept: [] },
  });
  expect(writes.deletes()).toHaveLength(0);

  // The toast leads to the job in the job centre, which follows it to the end.
  await page
    .getByRole("status")
    .filter({ has: started })
    .getByRole("button", { name: "View job" })
    .click();
  await expect(page).toHaveURL(/\/jobs\?job=/);
  const drawer = page.getByRole("dialog", { name: "Move to trash" });
  await expect(drawer).toBeVisible();
  // Generous waits: at load 12 the restore below outlasted 90 s.
  await expect(drawer.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100", {
    timeout: 300_000,
  });
  await expect(drawer.getByText("Completed")).toBeVisible();
  await expect(drawer).toContainText("100,000 of 100,000");
  await expectNoAxeViolations(page);
  expect(await total(service, top)).toBe(0);

  // Undo is one request for the whole job.
  await drawer.getByRole("button", { name: "Undo Move to trash" }).click();
  await expect(page.getByText("Restoring 100,000 items…")).toBeVisible();
  await expect.poll(() => total(service, top), { timeout: 300_000 }).toBe(100_000);
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  const restore = page.getByRole("row", { name: /Restore/ }).first();
  await expect(restore.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  expect(writes.bulkStarts()).toHaveLength(1);
  expect(writes.deletes()).toHaveLength(0);
  expect(writes.restores()).toHaveLength(0);
});

test("select all and Shift+Delete delete a 12,000-entry folder for good as one job, sending no paths", async ({
  page,
  service,
}) => {
  const top = `Gone for good ${unique()}`;
  await service.seed(top, 12_000);
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/files?path=${encodeURIComponent(top)}`);
  await expect(page.getByText("12,000 items")).toBeVisible();

  const writes = recordWrites(page);
  const listings: string[] = [];
  page.on("request", (r) => {
    if (/\/files\?/.test(r.url())) listings.push(r.url());
  });
  await page.getByRole("row", { name: /dir_0000049/ }).click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.getByRole("row", { name: /dir_0000049/ }).click({ modifiers: ["ControlOrMeta"] });
  await expect(page.getByRole("region", { name: "Selection" })).toContainText("11,999 selected");
  await page.keyboard.press("Shift+Delete");
  const dialog = page.getByRole("alertdialog", { name: "Delete 11,999 items permanently?" });
  await dialog.getByLabel("Type 11999 to confirm").fill("11999");
  await dialog.getByRole("button", { name: "Delete permanently" }).click();
  await expect(dialog).toBeHidden();

  // The folder's pages were not read to make a list of paths: the folder went, less its exception.
  expect(listings.length).toBeLessThan(5);
  expect(writes.deletes()).toHaveLength(0);
  expect(writes.bulkStarts().map((r) => r.postDataJSON())).toEqual([
    { action: "delete", selection: { folder: top, allExcept: ["dir_0000049"] } },
  ]);
  await expect(page.getByText("Deleted 11,999 items permanently")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("1 item", { exact: true })).toBeVisible();
  await expect(page.getByRole("row", { name: /dir_0000049/ })).toBeVisible();
  expect(await total(service, top)).toBe(1);
});

test("restoring everything that matches a trash filter is one job", async ({ page, service }) => {
  const top = `Filtered ${unique()}`;
  const names = ["Match a", "Match b", "Match c", "Match d", "Other"];
  for (const name of names) await service.api("POST", "/files/folder", { path: `${top}/${name}` });
  await service.api("DELETE", "/files", { paths: names.map((n) => `${top}/${n}`) });

  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto("/trash");
  await page.getByLabel("Filter by name or path").fill(`${top}/Match`);
  await expect(page.getByRole("checkbox", { name: /^Select .*Match/ })).toHaveCount(4);
  await page.getByRole("checkbox", { name: "Select all shown" }).check();
  await page.getByRole("checkbox", { name: `Select ${top}/Match d` }).uncheck();
  await expect(page.getByText("3 selected")).toBeVisible();

  const writes = recordWrites(page);
  await page.getByRole("button", { name: "Restore" }).click();
  // The job may wait its turn behind another journey's bulk job on the shared service.
  await expect(page.getByText("Restored 3 items", { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  expect(writes.restores()).toHaveLength(0);
  expect(writes.bulkStarts()).toHaveLength(1);
  const body = writes.bulkStarts()[0]!.postDataJSON();
  expect(body.action).toBe("restore");
  expect(body.selection.filter.q).toBe(`${top}/Match`);
  expect(body.selection.allExcept).toHaveLength(1);

  const listing = await service.api<{ items: { name: string }[] }>(
    "GET",
    `/files?path=${encodeURIComponent(top)}`,
  );
  expect(listing.items.map((i) => i.name)).toEqual(["Match a", "Match b", "Match c"]);
  await expect(page.getByRole("checkbox", { name: `Select ${top}/Match d` })).toBeVisible();
});

test("a copy started in Files is reported once when it ends, however short, and links to the job", async ({
  page,
  service,
}) => {
  const top = `Copied ${unique()}`;
  await service.writeFile(`${top}/cut.txt`, "a cut");
  await service.api("POST", "/files/folder", { path: `${top}/Archive` });
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/files?path=${encodeURIComponent(top)}`);

  await page.getByRole("row", { name: /cut\.txt/ }).click({ button: "right" });
  await page.getByRole("menuitem", { name: "Copy to…" }).click();
  const dialog = page.getByRole("dialog", { name: "Copy “cut.txt” to…" });
  await dialog.getByRole("button", { name: "Archive" }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toContainText("No folders inside.");
  await dialog.getByRole("button", { name: "Copy here" }).click();

  // The job ends well within one poll; the shell still says so, once.
  const ended = page.getByRole("status").filter({ hasText: "Copied “cut.txt”" });
  await expect(ended).toHaveCount(1);
  await ended.getByRole("button", { name: "View job" }).click();
  const drawer = page.getByRole("dialog", { name: "Copy" });
  await expect(drawer.getByText("Completed")).toBeVisible();
  await expect(drawer).toContainText(`${top}/cut.txt`);
  await expectNoAxeViolations(page);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the job centre keeps the job and its progress, and opens a job by keyboard, light and dark", async ({
    page,
    service,
  }) => {
    const top = `Phone jobs ${unique()}`;
    // Seven items: a count no other journey's job has, since they run theirs on the same
    // service meanwhile and a bulk job's row names its count, not its paths.
    const gone = Array.from({ length: 7 }, (_, i) => `${top}/Gone ${i}`);
    for (const path of gone) await service.api("POST", "/files/folder", { path });
    await service.api("POST", "/files/bulk", { action: "trash", selection: { paths: gone } });
    await page.goto(service.signInUrl);
    await expect(page).toHaveURL(/\/files/);
    await page.goto("/jobs");
    await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();

    const row = page
      .getByRole("row", { name: /Move to trash/ })
      .filter({ hasText: "7 items" })
      .first();
    await expect(row.getByRole("progressbar")).toBeVisible();
    await expect(row.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
    await expect(page.getByRole("columnheader", { name: "Rate" })).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await expectNoAxeViolations(page);

    await row.getByRole("button", { name: /^Move to trash/ }).focus();
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog", { name: "Move to trash" });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole("button", { name: "Undo Move to trash" })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();

    await page.getByRole("button", { name: "Dark theme" }).click();
    await settleAnimations(page);
    await expectNoAxeViolations(page);
  });
});

test("the job centre lists media renders: a video's proxy when ready, and a broken file's failure with ffmpeg's reason", async ({
  page,
  service,
}) => {
  const folder = `Renders-${unique()}`;
  await service.writeBytes(`${folder}/clip.mp4`, await makeClip({ seconds: 1, audio: false }));
  // Named as video, not one: its render fails, and the job centre says why.
  await service.writeBytes(`${folder}/broken.mov`, Buffer.from("not a movie at all"));
  await service.api("POST", "/files/proxies", {
    paths: [`${folder}/clip.mp4`, `${folder}/broken.mov`],
  });

  await signIn(page, service);
  await page.goto("/jobs");
  const renders = page.getByRole("table", { name: "Media renders" });
  const clipProxy = renders
    .getByRole("row")
    .filter({ hasText: `${folder}/clip.mp4` })
    .filter({ hasText: "Video proxy (720p)" });
  // Polled while something renders: the row turns ready without a reload.
  await expect(clipProxy).toContainText("Ready", { timeout: 30_000 });
  await expect(
    renders
      .getByRole("row")
      .filter({ hasText: `${folder}/broken.mov` })
      .first(),
  ).toContainText("Failed:", { timeout: 30_000 });
  await expectNoAxeViolations(page);
});
