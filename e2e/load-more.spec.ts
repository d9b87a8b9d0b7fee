import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * Makes every request for a later page (its URL has `param`) fail as a network error, retries
 * included, until `heal()`; `refused` resolves at the first.
 */
async function failLaterPages(page: Page, param: string) {
  const pattern = (url: URL) => url.pathname.startsWith("/v1/") && url.searchParams.has(param);
  let first!: () => void;
  const refused = new Promise<void>((r) => {
    first = r;
  });
  await page.route(pattern, async (route) => {
    await route.abort("connectionreset");
    first();
  });
  return { refused, heal: () => page.unroute(pattern) };
}

/** Scrolls the table with the wheel until `reached` (the list asks for its next page at its end). */
async function scrollUntil(page: Page, table: Locator, reached: Promise<void>) {
  let done = false;
  void reached.then(() => {
    done = true;
  });
  await table.hover();
  await expect
    .poll(async () => {
      await page.mouse.wheel(0, 4000);
      return done;
    })
    .toBe(true);
}

const nextPageAnswer = (page: Page, param: string) =>
  page.waitForResponse((r) => new URL(r.url()).searchParams.has(param));

test("a Shares page that fails to load more keeps the rows shown and says so under them, with Try again", async ({
  page,
  service,
}) => {
  const recipient = `more.${unique()}@example.com`;
  const file = `Load more ${unique()}/cut.mov`;
  await service.writeFile(file, "a cut");
  // One more than a page (50): the list asks for a second page at its end.
  for (let i = 0; i < 51; i++)
    await service.api("POST", "/shares", {
      paths: [file],
      recipients: [recipient],
      title: `Cut ${String(i).padStart(2, "0")}`,
    });

  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  const { refused, heal } = await failLaterPages(page, "cursor");
  await page.goto(`/shares?recipient=${encodeURIComponent(recipient)}`);
  const table = page.getByRole("table", { name: "Shares" });
  await expect(table.getByRole("row", { name: /Cut 50/ })).toBeVisible();
  await scrollUntil(page, table, refused);

  const alert = page.getByRole("alert").filter({ hasText: "Could not load more shares" });
  await expect(alert).toBeVisible();
  await expect(table.getByRole("row", { name: /Cut 01/ })).toBeVisible();
  await heal();
  const retried = nextPageAnswer(page, "cursor");
  await alert.getByRole("button", { name: "Try again" }).click();
  expect((await retried).status()).toBe(200);
  await expect(alert).toBeHidden();
  await table.getByRole("row", { name: /Cut 01/ }).scrollIntoViewIfNeeded();
  await expect(table.getByRole("row", { name: /Cut 00/ })).toBeVisible();
});

test("webhook deliveries that fail to load more keep the rows shown and say so under them, with Try again", async ({
  page,
  service,
}) => {
  const server = http.createServer((_req, res) => res.writeHead(200).end("ok"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const { port } = server.address() as AddressInfo;
    const { id } = await service.api<{ id: string }>("POST", "/webhooks", {
      url: `http://127.0.0.1:${port}/more-${unique()}`,
      events: ["transfer.completed"],
    });
    // One more than a page (100) of deliveries to this endpoint.
    for (let i = 0; i < 101; i++) await service.api("POST", `/webhooks/${id}/test`);

    await page.goto(service.signInUrl);
    await expect(page).toHaveURL(/\/files/);
    const { refused, heal } = await failLaterPages(page, "before");
    await page.goto(`/webhooks/${id}`);
    const table = page.getByRole("table", { name: "Deliveries, newest first" });
    await expect(table.getByRole("row").nth(1)).toBeVisible();
    const rows = table.getByRole("row", { name: /webhook\.test/ });
    await scrollUntil(page, table, refused);

    const alert = page.getByRole("alert").filter({ hasText: "Could not load more deliveries" });
    await expect(alert).toBeVisible();
    await expect(rows.last()).toBeVisible();
    await heal();
    const retried = nextPageAnswer(page, "before");
    await alert.getByRole("button", { name: "Try again" }).click();
    expect((await retried).status()).toBe(200);
    await expect(alert).toBeHidden();
  } finally {
    server.close();
  }
});
