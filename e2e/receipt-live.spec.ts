import type { CreatedShare } from "@/contract/shares";
import { expect, test } from "./fixtures";

test("an open receipt shows a recipient's download without a reload, polling gently", async ({
  browser,
  page,
  service,
}) => {
  const top = `Live-${Date.now()}`;
  await service.writeFile(`${top}/grade.cdl`, "slope 1.02\n".repeat(100));
  const share = await service.api<CreatedShare>("POST", "/shares", {
    paths: [top],
    title: "Live grade",
    recipients: ["colorist@example.com"],
    notify: false,
  });

  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  const polls: number[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith(`/shares/${share.id}/receipt`)) polls.push(Date.now());
  });
  await page.goto(`/shares?share=${share.id}&view=receipt`);
  const recipients = page.getByRole("region", { name: "Recipients" });
  const row = recipients.getByRole("listitem").filter({ hasText: "colorist@example.com" });
  await expect(row).toBeVisible();
  await expect(row).not.toContainText("Verified");

  // The recipient downloads in a browser of their own while the sender's receipt stays open.
  const recipient = await browser.newContext({ acceptDownloads: true });
  const theirs = await recipient.newPage();
  await theirs.goto(share.recipientLinks[0]!.url);
  const downloading = theirs.waitForEvent("download");
  await theirs.getByRole("button", { name: `Download ${top}/grade.cdl` }).click();
  await downloading;
  await expect(theirs.getByRole("row", { name: /grade\.cdl/ }).getByText("Verified")).toBeVisible();
  await recipient.close();

  await expect(row).toContainText("Verified");
  const span = (polls.at(-1)! - polls[0]!) / 1000;
  // A few requests a second at most: the console polls an open receipt about every 2 s.
  expect(polls.length).toBeGreaterThan(1);
  expect(polls.length - 1).toBeLessThanOrEqual(Math.ceil(span / 1.5) + 1);
});
