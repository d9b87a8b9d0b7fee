import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function axeLightAndDark(page: Page) {
  await page.emulateMedia({ colorScheme: "light" });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: "light" });
}

test("a share from a Files selection: list and filters, detail, extend, comment, receipt, revoke", async ({
  page,
  service,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const top = `Share ${unique()}`;
  const title = `Cut for the client ${unique()}`;
  const recipient = `ann.${unique()}@example.com`;
  await service.writeFile(`${top}/cut.mov`, "the final cut");
  await service.writeFile(`${top}/notes.txt`, "notes");

  // Create it from a selection in Files.
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/files?path=${encodeURIComponent(top)}`);
  await page.getByRole("row", { name: /\bcut\.mov\b/ }).click();
  const bar = page.getByRole("region", { name: "Selection" });
  await expect(bar).toContainText("1 selected");
  await bar.getByRole("button", { name: "Share…" }).click();
  const dialog = page.getByRole("dialog", { name: `Share “${top}/cut.mov”` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Title (optional)").fill(title);
  // The contract's rules are checked at their fields before anything is sent.
  await dialog.getByLabel("Recipients (optional)").fill("nobody");
  await dialog.getByLabel("Password (optional)").fill("short");
  await dialog.getByRole("button", { name: "Create share" }).click();
  await expect(dialog.getByText("“nobody” is not an email address.")).toBeVisible();
  await expect(dialog.getByText("8 to 256 characters, or empty for none.")).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByLabel("Recipients (optional)").fill(recipient);
  await dialog.getByLabel("Password (optional)").fill("correct horse battery");
  // With recipients only personal links are made, unless a link for anyone is asked for.
  const openLink = dialog.getByLabel("Also create a link anyone can use");
  await expect(openLink).not.toBeChecked();
  await openLink.check();
  await dialog.getByRole("button", { name: "Create share" }).click();
  const created = page.getByRole("dialog", { name: "Share created" });
  await expect(created.getByLabel("Link: Link for anyone")).toHaveValue(/\/s\//);
  await expect(created.getByLabel(`Link: ${recipient}`)).toHaveValue(/\/s\//);
  await expectNoAxeViolations(page);
  await created.getByRole("button", { name: "Done" }).click();

  // The list, with the contract's filters kept in the address.
  await page.goto("/shares");
  const row = page.getByRole("row", { name: new RegExp(title) });
  await expect(row).toContainText("Active");
  await expect(row).toContainText(recipient);
  await axeLightAndDark(page);
  await page.getByLabel("Recipient").fill(recipient.toUpperCase());
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`recipient=${encodeURIComponent(recipient)}`));
  await expect(row).toBeVisible();
  await page.getByRole("checkbox", { name: "Never opened" }).check();
  await expect(page).toHaveURL(/neverOpened=true/);
  await expect(row).toBeVisible();
  await page.getByRole("combobox", { name: "Status" }).selectOption("revoked");
  await expect(page.getByRole("heading", { name: "No shares match" })).toBeVisible();
  await page.getByRole("combobox", { name: "Status" }).selectOption("active");
  await expect(row).toBeVisible();

  // The share: copy its link, extend it, comment and reply.
  await row.getByRole("link", { name: new RegExp(title) }).click();
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Copy the share link" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/s\//);
  await expect(page.getByRole("status").filter({ hasText: /^Copied$/ })).toBeAttached();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Extend…" }).click();
  const extend = page.getByRole("dialog", { name: `Extend “${title}”` });
  await extend.getByLabel("Expires in (days from now)").fill("30");
  await extend.getByRole("button", { name: "Extend" }).click();
  await expect(extend).toBeHidden();
  await page.getByLabel("Add a comment").fill("Here is the final cut.");
  await page.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(page.getByRole("article").getByText("Here is the final cut.")).toBeVisible();
  await page.getByRole("button", { name: "Reply", exact: true }).click();
  await page.getByLabel("Your reply").fill("And the notes are inside.");
  await page.getByRole("button", { name: "Reply", exact: true }).last().click();
  await expect(page.getByRole("article").getByText("And the notes are inside.")).toBeVisible();
  await axeLightAndDark(page);

  // The receipt: nothing downloaded yet, so no integrity to claim.
  await page.getByRole("link", { name: "Receipt", exact: true }).click();
  await expect(page.getByTestId("verdict")).toHaveText("Not delivered yet");
  await expect(
    page
      .getByRole("region", { name: "Files and checksums" })
      .getByRole("row", { name: /cut\.mov/ }),
  ).toBeVisible();
  await expect(page.getByText("Extended", { exact: true })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Receipt CSV" }).click(),
  ]);
  const csv = fs.readFileSync(await download.path(), "utf8");
  expect(csv.split("\r\n")[0]).toBe(
    "recipient,path,size_bytes,sha256,status,downloaded_at,download_id",
  );
  expect(csv).toContain(`${top}/cut.mov`);
  await axeLightAndDark(page);

  // At a phone's width the receipt and the share still read.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("verdict")).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Share", exact: true }).click();
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeInViewport();
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Revoke, after asking.
  await page.getByRole("button", { name: "Revoke…" }).click();
  const confirm = page.getByRole("alertdialog", { name: `Revoke “${title}”?` });
  await confirm.getByRole("button", { name: "Revoke" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText("Revoked", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Extend…" })).toHaveCount(0);
});

test("extend and revoke a selection of shares, each time in one request", async ({
  page,
  service,
}) => {
  const recipient = `bulk.${unique()}@example.com`;
  const titles = [`First batch ${unique()}`, `Second batch ${unique()}`];
  for (const [i, title] of titles.entries()) {
    await service.writeFile(`Bulk ${title}/take${i}.mov`, `take ${i}`);
    await service.api("POST", "/shares", {
      paths: [`Bulk ${title}`],
      title,
      recipients: [recipient],
      expiresInDays: 2,
    });
  }
  const bulkPosts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && /\/shares\/bulk$/.test(new URL(r.url()).pathname))
      bulkPosts.push(r.postData() ?? "");
  });

  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/shares?recipient=${encodeURIComponent(recipient)}`);
  const bar = page.getByText("Select shares to extend or revoke them");
  await expect(bar).toBeVisible();
  for (const title of titles) await page.getByRole("checkbox", { name: `Select ${title}` }).check();
  await expect(page.getByText("2 shares selected")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(titles[0]!) })).toContainText("in 2 days");
  await axeLightAndDark(page);

  // Extend both: one request, the outcome in a toast.
  await page.getByRole("button", { name: "Extend…" }).click();
  const extend = page.getByRole("dialog", { name: "Extend 2 shares" });
  await extend.getByLabel("Expires in (days from now)").fill("30");
  await expectNoAxeViolations(page);
  await extend.getByRole("button", { name: "Extend" }).click();
  await expect(extend).toBeHidden();
  await expect(page.getByText("Extended 2 shares")).toBeVisible();
  expect(bulkPosts).toHaveLength(1);
  expect(JSON.parse(bulkPosts[0]!)).toMatchObject({ action: "extend", expiresInDays: 30 });
  expect(JSON.parse(bulkPosts[0]!).shareIds).toHaveLength(2);
  for (const title of titles)
    await expect(page.getByRole("row", { name: new RegExp(title) })).not.toContainText("in 2 days");

  // At a phone's width the selection and its actions still fit.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const title of titles) await page.getByRole("checkbox", { name: `Select ${title}` }).check();
  await expect(page.getByRole("button", { name: "Revoke…" })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);

  // Revoke both, after asking: again one request.
  await page.getByRole("button", { name: "Revoke…" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Revoke 2 shares?" });
  await axeLightAndDark(page);
  await confirm.getByRole("button", { name: "Revoke" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText("Revoked 2 shares")).toBeVisible();
  expect(bulkPosts).toHaveLength(2);
  expect(JSON.parse(bulkPosts[1]!)).toMatchObject({ action: "revoke" });
  for (const title of titles)
    await expect(page.getByRole("row", { name: new RegExp(title) })).toContainText("Revoked");
  await expect(page.getByText("Select shares to extend or revoke them")).toBeVisible();
});
