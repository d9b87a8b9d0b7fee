import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback that answers `status` and keeps every request it got. */
async function startReceiver() {
  const received: Received[] = [];
  const state = { status: 200 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(state.status, { "Content-Type": "text/plain" }).end(`answered ${state.status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    state,
    url: (path: string) => `http://127.0.0.1:${port}/${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function validSignature(header: string, body: string, secret: string): boolean {
  const t = /t=(\d+)/.exec(header)?.[1];
  const v1 = /v1=([0-9a-f]{64})/.exec(header)?.[1];
  if (!t || !v1) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(Buffer.from(v1, "hex"), expected);
}

test("an endpoint created in the console shows its secret once and receives a signed test", async ({
  page,
  service,
}) => {
  const receiver = await startReceiver();
  try {
    const hookUrl = receiver.url(`created-${unique()}`);
    await page.goto(service.signInUrl);
    await expect(page).toHaveURL(/\/files/);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();

    await page.getByRole("button", { name: "Add endpoint" }).first().click();
    const form = page.getByRole("dialog", { name: "Add an endpoint" });
    await form.getByLabel("Endpoint URL").fill(hookUrl);
    await form.getByLabel("transfer.completed").check();
    await expectNoAxeViolations(page);
    await form.getByRole("button", { name: "Add endpoint" }).click();

    const reveal = page.getByRole("dialog", { name: "Endpoint created" });
    await expect(reveal).toContainText("will not be shown again");
    await reveal.getByRole("button", { name: "Reveal secret" }).click();
    const secret = (await reveal.getByTestId("signing-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    await expectNoAxeViolations(page);
    await reveal.getByRole("button", { name: "I have saved it" }).click();
    await expect(reveal).toBeHidden();

    // Reopening the endpoint never shows the secret again.
    await page.getByRole("link", { name: hookUrl }).click();
    await expect(page.getByRole("heading", { name: "Deliveries", level: 1 })).toBeVisible();
    await expect(page.getByText("Hidden; rotate it to get a new one")).toBeVisible();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole("button", { name: "Send test" }).click();
    const log = page.getByRole("table", { name: "Deliveries, newest first" });
    await expect(log.getByRole("row", { name: /Delivered.*webhook\.test/ })).toBeVisible();
    await expectNoAxeViolations(page);

    await expect.poll(() => receiver.received.length).toBe(1);
    const [request] = receiver.received;
    expect(request?.headers["service-event"]).toBe("webhook.test");
    expect(
      validSignature(String(request?.headers["service-signature"]), request?.body ?? "", secret),
    ).toBe(true);
  } finally {
    await receiver.close();
  }
});

test("a failed delivery is retried from its drawer once the receiver recovers", async ({
  page,
  service,
}) => {
  const receiver = await startReceiver();
  try {
    const endpoint = await service.api<{ id: string }>("POST", "/webhooks", {
      url: receiver.url(`flaky-${unique()}`),
      events: ["*"],
    });
    receiver.state.status = 500;
    await page.goto(service.signInUrl);
    await expect(page).toHaveURL(/\/files/);
    await page.goto(`/webhooks/${endpoint.id}`);

    await page.getByRole("button", { name: "Send test" }).click();
    const row = page
      .getByRole("table", { name: "Deliveries, newest first" })
      .getByRole("row", { name: /webhook\.test/ });
    await expect(row).toContainText(/Pending|Failed/);
    await expect(row).toContainText("HTTP 500");
    await row.click();

    const drawer = page.getByRole("dialog", { name: "Delivery" });
    await expect(drawer.getByText("Attempt 1")).toBeVisible();
    await expect(drawer.getByText("HTTP 500").first()).toBeVisible();
    await expect(drawer.getByText(/Next attempt in \d/)).toBeVisible();
    await expect(drawer.getByText('"type": "webhook.test"')).toBeVisible();
    await expect(drawer.getByText("service-signature")).toBeVisible();
    await expectNoAxeViolations(page);

    receiver.state.status = 200;
    await drawer.getByRole("button", { name: "Retry now" }).click();
    await expect(drawer.getByText("Delivered", { exact: true })).toBeVisible();
    await expect(drawer.getByText("Attempt 2")).toBeVisible();
    await expect(drawer.getByText("Manual")).toBeVisible();
    await drawer.getByRole("button", { name: "Close" }).click();
    await expect(drawer).toBeHidden();
    await expect(row).toContainText("Delivered");
    // `*` takes file events too, which tests running beside this one may cause.
    const tests = receiver.received.filter((r) => r.headers["service-event"] === "webhook.test");
    expect(tests.length).toBe(2);
  } finally {
    await receiver.close();
  }
});

test("the events page tails new events and shows one in full", async ({ page, service }) => {
  const endpoint = await service.api<{ id: string }>("POST", "/webhooks", {
    url: `http://127.0.0.1:9/tail-${unique()}`,
    events: ["member.joined"],
  });
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.getByRole("link", { name: "Events" }).click();
  await expect(page.getByRole("status").getByText("Live")).toBeVisible();
  await expect(page.getByRole("status", { name: "Loading events" })).toBeHidden();

  const { eventId } = await service.api<{ eventId: string }>(
    "POST",
    `/webhooks/${endpoint.id}/test`,
  );
  const row = page.getByRole("row", { name: new RegExp(eventId) });
  await expect(row).toBeVisible();
  await expectNoAxeViolations(page);

  await row.click();
  const drawer = page.getByRole("dialog", { name: "webhook.test" });
  await expect(drawer.getByText(`"id": "${eventId}"`)).toBeVisible();
  await expect(drawer.getByRole("button", { name: "Copy the event as JSON" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("status").getByText("Paused")).toBeVisible();
  await page.getByRole("button", { name: "Jump to latest" }).click();
  await expect(page.getByRole("status").getByText("Live")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(eventId) })).toBeVisible();
});

test("a disabled endpoint is re-enabled, its secret rotated, and a signature checked in the browser", async ({
  page,
  service,
}) => {
  const receiver = await startReceiver();
  try {
    const url = receiver.url(`rotate-${unique()}`);
    const created = await service.api<{ id: string; secret: string }>("POST", "/webhooks", {
      url,
      events: ["share.created"],
    });
    await service.api("POST", `/webhooks/${created.id}/test`);
    await expect.poll(() => receiver.received.length).toBe(1);
    const [request] = receiver.received;
    const header = String(request?.headers["service-signature"]);
    await service.api("PATCH", `/webhooks/${created.id}`, { status: "disabled" });

    await page.goto(service.signInUrl);
    await expect(page).toHaveURL(/\/files/);
    await page.goto("/webhooks");
    const banner = page.getByRole("region", { name: `Disabled: ${url}` });
    await expect(banner).toContainText("This endpoint is disabled");
    await page.getByRole("button", { name: "Dark theme" }).click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expectNoAxeViolations(page);
    await banner.getByRole("button", { name: "Re-enable" }).click();
    await expect(banner).toBeHidden();

    await page.getByRole("button", { name: `More actions for ${url}` }).click();
    await page.getByRole("menuitem", { name: "Rotate secret…" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Rotate secret" }).click();
    const reveal = page.getByRole("dialog", { name: "New signing secret" });
    await expect(reveal).toContainText("will not be shown again");
    await reveal.getByRole("button", { name: "Reveal secret" }).click();
    const rotated = (await reveal.getByTestId("signing-secret").textContent()) ?? "";
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(created.secret);
    await reveal.getByRole("button", { name: "I have saved it" }).click();

    await page.getByRole("tab", { name: "Verify signatures" }).click();
    await page.getByLabel("Signing secret").fill(created.secret);
    await page.getByLabel("Service-Signature header").fill(header);
    await page.getByLabel("Raw request body").fill(request?.body ?? "");
    await page.getByRole("button", { name: "Check signature" }).click();
    await expect(page.getByText("Valid signature")).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByLabel("Signing secret").fill(rotated);
    await page.getByRole("button", { name: "Check signature" }).click();
    await expect(page.getByText("Invalid signature")).toBeVisible();

    const old = Math.floor(Date.now() / 1000) - 600;
    const body = '{"id":"x"}';
    const v1 = createHmac("sha256", rotated).update(`${old}.${body}`).digest("hex");
    await page.getByLabel("Service-Signature header").fill(`t=${old},v1=${v1}`);
    await page.getByLabel("Raw request body").fill(body);
    await page.getByRole("button", { name: "Check signature" }).click();
    await expect(page.getByText("Valid signature")).toBeVisible();
    await expect(page.getByText("Older than 5 minutes")).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test("the secret shown once asks before it closes unless it was copied", async ({
  page,
  service,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const url = `https://example.com/secret-${unique()}`;
  await service.api("POST", "/webhooks", { url, events: ["share.created"] });
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto("/webhooks");
  const rotate = async () => {
    await page.getByRole("button", { name: `More actions for ${url}` }).click();
    await page.getByRole("menuitem", { name: "Rotate secret…" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Rotate secret" }).click();
  };
  const reveal = page.getByRole("dialog", { name: "New signing secret" });
  const ask = page.getByRole("alertdialog", {
    name: "You have not copied the secret. Close anyway?",
  });

  await rotate();
  await expect(reveal).toBeVisible();
  // Escape, a click outside and × each ask; keeping it open keeps the secret.
  await page.keyboard.press("Escape");
  await expect(ask).toBeVisible();
  await expectNoAxeViolations(page);
  // Under the pointer the destructive button keeps its contrast (a paler hover did not).
  await ask.getByRole("button", { name: "Close anyway" }).hover();
  await expectNoAxeViolations(page);
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toBeHidden();
  await page.mouse.click(5, 5);
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(reveal).toBeVisible();
  await reveal.getByRole("button", { name: "Close" }).click();
  await ask.getByRole("button", { name: "Close anyway" }).click();
  await expect(ask).toBeHidden();
  await expect(reveal).toBeHidden();

  // Once copied, it closes without asking.
  await rotate();
  await reveal.getByRole("button", { name: "Reveal secret" }).click();
  const secret = (await reveal.getByTestId("signing-secret").textContent()) ?? "";
  await reveal.getByRole("button", { name: "Copy secret" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.keyboard.press("Escape");
  await expect(reveal).toBeHidden();
  await expect(ask).toHaveCount(0);
});

test("deliveries a disabled endpoint holds say held, and a test is not sent to it", async ({
  page,
  service,
}) => {
  // Nothing listens on port 9: the first attempt fails and a retry is scheduled.
  const url = `http://127.0.0.1:9/held-${unique()}`;
  const endpoint = await service.api<{ id: string }>("POST", "/webhooks", { url, events: ["*"] });
  await service.api("POST", `/webhooks/${endpoint.id}/test`);
  const deliveries = () =>
    service.api<{ status: string; attempts: number }[]>(
      "GET",
      `/webhooks/${endpoint.id}/deliveries`,
    );
  await expect.poll(async () => (await deliveries())[0]?.attempts).toBe(1);
  expect((await deliveries())[0]?.status).toBe("pending");
  await service.api("PATCH", `/webhooks/${endpoint.id}`, { status: "disabled" });

  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/webhooks/${endpoint.id}`);
  const row = page
    .getByRole("table", { name: "Deliveries, newest first" })
    .getByRole("row", { name: /webhook\.test/ });
  await expect(row).toContainText("Held");
  await expect(row).toContainText("Held: endpoint disabled");
  await expect(row).not.toContainText(/Next in|Pending/);
  await row.click();
  const drawer = page.getByRole("dialog", { name: "Delivery" });
  await expect(drawer).toContainText(
    "Held. The endpoint is disabled: no attempt is made until it is re-enabled.",
  );
  await expect(drawer.getByText(/Next attempt/)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");

  const send = page.getByRole("button", { name: "Send test" });
  await expect(send).toHaveAttribute("aria-disabled", "true");
  await expect(send).toHaveAttribute(
    "title",
    "The endpoint is disabled: re-enable it to send a test.",
  );
  // Playwright waits for an aria-disabled control to be enabled; a person can still press it.
  await send.click({ force: true });
  await expect(page.getByRole("status").filter({ hasText: "Test not sent" })).toBeVisible();
  expect(await deliveries()).toHaveLength(1);
});

test.describe("on a phone (390 × 844)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  const fitsTheWidth = async (page: import("@playwright/test").Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );

  test("endpoints and their deliveries keep the URL and event, with the drawer on screen", async ({
    page,
    service,
  }) => {
    const receiver = await startReceiver();
    try {
      const url = receiver.url(`phone-${unique()}`);
      const endpoint = await service.api<{ id: string }>("POST", "/webhooks", {
        url,
        description: "A receiver with a description long enough to be cut short on a phone",
        events: ["share.created", "share.revoked", "file.created"],
      });
      await service.api("POST", `/webhooks/${endpoint.id}/test`);
      await page.goto(service.signInUrl);
      await expect(page).toHaveURL(/\/files/);
      await page.goto("/webhooks");
      const endpoints = page.getByRole("table", { name: "Webhook endpoints" });
      await expect(endpoints.getByRole("link", { name: url })).toBeVisible();
      await expect(endpoints.getByRole("columnheader", { name: "Events" })).toHaveCount(0);
      await expect(
        endpoints.getByRole("row", { name: new RegExp(url) }).getByRole("button", {
          name: "Send test",
        }),
      ).toBeVisible();
      await fitsTheWidth(page);
      await expectNoAxeViolations(page);

      await endpoints.getByRole("link", { name: url }).click();
      const row = page
        .getByRole("table", { name: "Deliveries, newest first" })
        .getByRole("row", { name: /Delivered.*webhook\.test/ });
      await expect(row).toBeVisible();
      await fitsTheWidth(page);
      await expectNoAxeViolations(page);
      await page.getByRole("button", { name: "Dark theme" }).click();
      await expect(page.locator("html")).toHaveClass(/dark/);
      await row.click();
      const drawer = page.getByRole("dialog", { name: "Delivery" });
      await expect(drawer.getByText("Attempt 1")).toBeVisible();
      const box = await drawer.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
      await expectNoAxeViolations(page);
    } finally {
      await receiver.close();
    }
  });

  test("events show file changes with their paths, filtered by grouped types", async ({
    page,
    service,
  }) => {
    const top = `Phone ${unique()}`;
    const folder = `${top}/Dailies`;
    await service.api("POST", "/files/folder", { path: folder });
    await page.goto(service.signInUrl);
    await expect(page).toHaveURL(/\/files/);
    await page.goto("/events?type=file.created");
    const filter = page.getByLabel("Event type");
    await expect(filter).toHaveValue("file.created");
    await expect(filter.locator('optgroup[label="Files"] > option')).toContainText([
      "file.created",
      "file.renamed",
      "file.trashed",
    ]);
    // One event for the request, naming the new top folder first, then the one inside it.
    const row = page.getByRole("row", { name: new RegExp(`file\\.created.*${top} and 1 more`) });
    await expect(row).toBeVisible();
    await fitsTheWidth(page);
    await expectNoAxeViolations(page);
    await row.click();
    const drawer = page.getByRole("dialog", { name: "file.created" });
    await expect(drawer.getByRole("heading", { name: "Paths (2)" })).toBeVisible();
    await expect(drawer.getByText(folder, { exact: true })).toBeVisible();
    const box = await drawer.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await expectNoAxeViolations(page);
  });
});
