import type { Browser, Page } from "@playwright/test";
import type { FileListing } from "@/contract/files";
import type { OutboxMessage } from "@/contract/mail";
import type { Portal, PortalDetail, PortalUpload } from "@/contract/portals";
import { expect, expectNoAxeViolationsInThemes, type Service, test } from "./fixtures";
import { sendThroughPortalPage, textFiles } from "./support/portal-sender";

/** A new portal (`body`) with one upload of one text file, sent by `sender` through its page. */
async function portalWithUpload(
  browser: Browser,
  service: Service,
  body: Record<string, unknown>,
  sender: { name: string; email: string },
) {
  const portal = await service.api<Portal>("POST", "/portals", body);
  const sent = await sendThroughPortalPage(
    browser,
    portal,
    sender,
    textFiles({ "notes.txt": "take 3 is the one" }),
  );
  await sent.context.close();
  return portal;
}

const uploadsOf = async (service: Service, portalId: string) =>
  (await service.api<PortalDetail>("GET", `/portals/${portalId}`)).uploads;

/** The names in a folder, or null when it is not there. */
async function namesIn(service: Service, path: string) {
  try {
    const listing = await service.api<FileListing>(
      "GET",
      `/files?path=${encodeURIComponent(path)}`,
    );
    return listing.items.map((i) => i.name).sort();
  } catch (error) {
    if (String(error).includes("-> 404")) return null;
    throw error;
  }
}

/** The reviewer's console on the queue of one portal, the active upload being `sender`'s. */
async function openQueue(page: Page, service: Service, portal: Portal, sender: string) {
  await page.goto(service.signInUrl);
  await page.waitForURL(/\/files/);
  await page.goto(`/portals?view=review&portalId=${portal.id}`);
  const active = page.getByRole("feed").locator("article[tabindex='0']");
  await expect(active).toContainText(sender);
  return active;
}

test("an approval is undone and the upload's folder is back where it landed", async ({
  browser,
  page,
  service,
}) => {
  const stamp = Date.now();
  const portal = await portalWithUpload(
    browser,
    service,
    { title: `Undo ${stamp}`, targetPath: `Incoming-${stamp}`, approvedPath: `Approved-${stamp}` },
    { name: "Ana", email: "ana@example.com" },
  );
  const [landed] = await uploadsOf(service, portal.id);
  const folder = landed!.folderPath;
  const name = folder.slice(folder.lastIndexOf("/") + 1);

  await openQueue(page, service, portal, "Ana");
  await page.keyboard.press("a");
  const toast = page.locator("[data-slot=toast]").filter({ hasText: "Approved: Ana" });
  await expect(toast).toContainText(`Its folder moves to Approved-${stamp}. Undo moves it back`);
  // Held under the pointer (a toast under it stays) while the move job runs.
  const undo = toast.getByRole("button", { name: "Undo" });
  await undo.hover();
  await expect
    .poll(() => namesIn(service, `Approved-${stamp}/${name}`), { timeout: 30_000 })
    .toEqual(["notes.txt"]);
  expect(await namesIn(service, folder)).toBeNull();

  await undo.click();
  await expect(page.getByText("Set to pending: Ana")).toBeVisible();
  await expect.poll(() => namesIn(service, folder), { timeout: 30_000 }).toEqual(["notes.txt"]);
  expect(await namesIn(service, `Approved-${stamp}`)).toEqual([]);
  const [undone] = await uploadsOf(service, portal.id);
  expect(undone).toMatchObject({ status: "pending", folderPath: folder });
  expect(undone!.files.map((f: PortalUpload["files"][number]) => f.path)).toEqual([
    `${folder}/notes.txt`,
  ]);
  // The queue's `o` opens the folder where it is now.
  await page.keyboard.press("o");
  await expect(page).toHaveURL(/\/files\?/);
  await expect(page.getByRole("row", { name: /notes\.txt/ })).toBeVisible();
});

test("approving an upload that failed its media check asks first; a passing one is one key", async ({
  browser,
  page,
  service,
}) => {
  const stamp = Date.now();
  // A text file and no video: the check fails ("no video file to check").
  const portal = await portalWithUpload(
    browser,
    service,
    {
      title: `Check first ${stamp}`,
      targetPath: `Checked-${stamp}`,
      spec: { name: "ProRes in MOV", containers: ["mov"], videoCodecs: ["prores"] },
    },
    { name: "Ben", email: "ben@example.com" },
  );
  await expect
    .poll(async () => (await uploadsOf(service, portal.id))[0]?.specCheck.status, {
      timeout: 30_000,
    })
    .toBe("failed");

  const active = await openQueue(page, service, portal, "Ben");
  await page.keyboard.press("a");
  const dialog = page.getByRole("alertdialog", { name: "Approve Ben’s upload?" });
  await expect(dialog).toContainText("Its media check failed");
  // Esc leaves it as it was, and the keys are the queue's again.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect((await uploadsOf(service, portal.id))[0]!.status).toBe("received");
  // Asked again; Enter approves it anyway.
  await page.keyboard.press("a");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Approve anyway" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("feed").getByRole("article")).toHaveCount(0);
  await expect.poll(async () => (await uploadsOf(service, portal.id))[0]!.status).toBe("approved");

  // Without a spec (nothing to fail), `a` approves at once.
  const plain = await portalWithUpload(
    browser,
    service,
    { title: `Plain ${stamp}`, targetPath: `Plain-${stamp}` },
    { name: "Cy", email: "cy@example.com" },
  );
  await page.goto(`/portals?view=review&portalId=${plain.id}`);
  await expect(active).toContainText("Cy");
  await page.keyboard.press("a");
  await expect(page.getByRole("feed").getByRole("article")).toHaveCount(0);
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect.poll(async () => (await uploadsOf(service, plain.id))[0]!.status).toBe("approved");
});

test("a sender's upload is rejected with a note to the sender; their status page and the outbox show it", async ({
  browser,
  page,
  service,
}) => {
  const stamp = Date.now();
  const portal = await service.api<Portal>("POST", "/portals", {
    title: `Status ${stamp}`,
    targetPath: `Status-${stamp}`,
  });
  expect(portal.notifySender).toEqual({ approved: false, rejected: true });
  const sender = await sendThroughPortalPage(
    browser,
    portal,
    { name: "Dee", email: "dee@example.com" },
    textFiles({ "cut.txt": "the cut" }),
  );
  // The confirmation links to the upload's status page: received, nobody decided yet.
  await sender.page.getByRole("link", { name: /status page/ }).click();
  await expect(sender.page).toHaveURL(/\/status\//);
  await expect(
    sender.page.getByRole("heading", { name: "Received, waiting for review" }),
  ).toBeVisible();

  // The reviewer rejects it: an internal note, and a note for the sender.
  await openQueue(page, service, portal, "Dee");
  await page.keyboard.press("r");
  await expect(page.getByRole("textbox", { name: /Why Dee.s upload is rejected/ })).toBeFocused();
  await page.keyboard.type("Third time the wrong cut");
  await page.keyboard.press("Tab");
  await expect(
    page.getByRole("textbox", { name: /Note to Dee \(shown to the sender/ }),
  ).toBeFocused();
  await page.keyboard.type("Please send the director's cut.");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("feed").getByRole("article")).toHaveCount(0);

  // The sender's page, read again, says so with the note meant for them, and only that one.
  await sender.page.getByRole("button", { name: "Refresh" }).click();
  await expect(sender.page.getByRole("heading", { name: "Not accepted" })).toBeVisible();
  await expect(sender.page.getByText("Please send the director's cut.")).toBeVisible();
  await expect(sender.page.getByText("Third time")).toHaveCount(0);

  const outbox = await service.api<{ items: OutboxMessage[] }>(
    "GET",
    `/outbox?portalId=${portal.id}&limit=50`,
  );
  const decision = outbox.items.find((m) => m.subject.includes("not accepted"))!;
  expect(decision.to).toBe("dee@example.com");
  expect(decision.text).toContain("Please send the director's cut.");
  expect(decision.text).toContain(sender.page.url());
  expect(decision.text).not.toContain("Third time");
  const [upload] = await uploadsOf(service, portal.id);
  expect(upload).toMatchObject({
    status: "rejected",
    reviewNote: "Third time the wrong cut",
    noteToSender: "Please send the director's cut.",
  });
  await sender.context.close();
});

test("on a phone an upload's details open as a sheet over the queue, and close back to it", async ({
  browser,
  page,
  service,
}) => {
  const stamp = Date.now();
  const portal = await portalWithUpload(
    browser,
    service,
    { title: `Phone ${stamp}`, targetPath: `Phone-${stamp}` },
    { name: "Cleo", email: "cleo@example.com" },
  );
  await page.setViewportSize({ width: 390, height: 844 });
  const row = await openQueue(page, service, portal, "Cleo");
  // Nothing is drawn below the list until the upload is tapped.
  await expect(page.getByRole("complementary", { name: "The active upload" })).toHaveCount(0);
  await row.getByText("Cleo", { exact: true }).click();
  const sheet = page.getByRole("dialog", { name: "The active upload" });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByText("notes.txt").first()).toBeInViewport();
  await expect(sheet.getByRole("button", { name: /^Approve/ })).toBeInViewport();
  await expectNoAxeViolationsInThemes(page, [390]);
  await page.keyboard.press("Escape");
  await expect(sheet).toHaveCount(0);
  // Enter on the focused row opens it again, for a keyboard on a narrow screen.
  await row.focus();
  await page.keyboard.press("Enter");
  await expect(sheet).toBeVisible();
});
