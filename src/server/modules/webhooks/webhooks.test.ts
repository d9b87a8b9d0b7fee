import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventTypes } from "@/contract/events";
import type { CreateWebhookBody, UpdateWebhookBody } from "@/contract/webhooks";
import type { Config } from "@/server/env";
import { ManualClock } from "@/server/lib/clock";
import { expectBody, expectError } from "@/server/testing/expect-body";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { startReceiver } from "@/server/testing/test-receiver";
import { webhooksRouter } from "./webhooks.index";

let clock: ManualClock;
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let status = 200;
let responseBody = "ok";

async function open(config: Partial<Config> = { webhooksAllowPrivate: true }) {
  t = await createTestApp({ clock, config });
  await t.deps.webhooks.stop();
}

beforeEach(async () => {
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  await open();
  status = 200;
  responseBody = "ok";
  receiver = await startReceiver(() => ({ status, body: responseBody }));
});
afterEach(async () => {
  await receiver.close();
  await t.close();
});

const api = () => t.client(webhooksRouter).workspaces[":workspaceId"];
const webhook = (webhookId: string) => ({ param: { ...t.ws, webhookId } });
const delivery = (webhookId: string, deliveryId: string) => ({
  param: { ...t.ws, webhookId, deliveryId },
});
const create = (json: CreateWebhookBody) => api().webhooks.$post({ param: t.ws, json });
const created = async (json: CreateWebhookBody) => expectBody(await create(json), 201);
const patch = (id: string, json: UpdateWebhookBody) =>
  api().webhooks[":webhookId"].$patch({ ...webhook(id), json });
const getEndpoint = async (id: string) =>
  expectBody(await api().webhooks[":webhookId"].$get(webhook(id)), 200);
const sendTest = async (id: string) =>
  expectBody(await api().webhooks[":webhookId"].test.$post(webhook(id)), 201);
const createHook = (json: { targetUrl: string; event: string }) =>
  api().hooks.$post({ param: t.ws, json });
const listHooks = async () => expectBody(await api().hooks.$get({ param: t.ws }), 200);

describe("webhook endpoints", () => {
  it("lists the catalogue", async () => {
    const body = await expectBody(await api().webhooks.events.$get({ param: t.ws }), 200);
    expect(body.events).toEqual(eventTypes);
  });

  it("returns the secret on creation and rotation only, and never stores it in clear", async () => {
    const body = await created({
      url: `${receiver.url}/in`,
      events: ["share.created", "*"],
      description: "CI",
    });
    expect(body).toMatchObject({
      url: `${receiver.url}/in`,
      description: "CI",
      events: ["share.created", "*"],
      status: "active",
      failureCount: 0,
      lastDeliveryAt: null,
      nextAttemptAt: null,
      createdAt: new Date(clock.now()).toISOString(),
    });
    const { id, secret } = body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);

    const listRes = await api().webhooks.$get({ param: t.ws });
    const listText = await listRes.clone().text();
    const list = await expectBody(listRes, 200);
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty("secret");
    expect(listText).not.toContain(secret);
    expect(await getEndpoint(id)).not.toHaveProperty("secret");
    const patched = await patch(id, { description: null });
    expect(await patched.text()).not.toContain("whsec_");

    const rotated = await expectBody(
      await api().webhooks[":webhookId"]["rotate-secret"].$post(webhook(id)),
      201,
    );
    expect(rotated).toEqual({ id, secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{32}$/) });
    expect(rotated.secret).not.toBe(secret);

    const stored = t.deps.db
      .prepare("SELECT secret_sealed FROM webhook_endpoints")
      .pluck()
      .get() as string;
    expect(stored).not.toContain(rotated.secret.slice(6));
    expect(t.deps.webhooks.secrets.open(stored)).toBe(rotated.secret);
  });

  it.each([
    [{ url: "ftp://example.com/x", events: ["*"] }, "url"],
    [{ url: "javascript:alert(1)", events: ["*"] }, "url"],
    [{ url: "http://", events: ["*"] }, "url"],
    [{ url: `https://example.com/${"a".repeat(2048)}`, events: ["*"] }, "url"],
    [{ url: "https://example.com", events: [] }, "events"],
    [{ url: "https://example.com", events: ["file.exploded"] }, "events.0"],
    [{ url: "https://example.com", events: ["webhook.test"] }, "events.0"],
    [{ url: "https://example.com", events: Array(51).fill("*") }, "events"],
    [{ url: "https://example.com", events: ["*"], description: "d".repeat(201) }, "description"],
    [{ events: ["*"] }, "url"],
  ])("refuses %j with validation_failed on %s", async (body, field) => {
    const error = await expectError(await create(body as never), 400);
    expect(error.code).toBe("validation_failed");
    expect(error.issues.map((i) => i.field)).toContain(field);
  });

  it("updates, disables, re-enables (resetting the count) and deletes", async () => {
    const { id } = await created({ url: "https://example.com/a", events: ["*"] });
    t.deps.db.prepare("UPDATE webhook_endpoints SET failure_count = 7").run();
    const updated = await patch(id, {
      url: "https://example.com/b",
      events: ["member.joined"],
      description: "new",
      status: "disabled",
    });
    expect(await expectBody(updated, 200)).toMatchObject({
      url: "https://example.com/b",
      events: ["member.joined"],
      description: "new",
      status: "disabled",
      failureCount: 7,
    });
    const enabled = await expectBody(await patch(id, { status: "active" }), 200);
    expect(enabled).toMatchObject({ status: "active", failureCount: 0 });
    expect((await patch(id, { url: "gopher://x.example" })).status).toBe(400);

    const del = await api().webhooks[":webhookId"].$delete(webhook(id));
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");
    expect((await api().webhooks[":webhookId"].$get(webhook(id))).status).toBe(404);
    expect((await api().webhooks[":webhookId"].$delete(webhook(id))).status).toBe(404);
    expect((await expectError(await patch(id, {}), 404)).code).toBe("not_found");
  });

  it("sends a test event to that endpoint only", async () => {
    const a = await created({ url: `${receiver.url}/a`, events: ["member.joined"] });
    await created({ url: `${receiver.url}/b`, events: ["*"] });
    const res = await sendTest(a.id);
    expect(res).toEqual({ eventId: expect.any(String), deliveryId: expect.any(String) });
    await t.deps.webhooks.runDue();
    expect(receiver.requests.map((r) => r.path)).toEqual(["/a"]);
    expect(JSON.parse(receiver.requests[0]!.body)).toMatchObject({
      id: res.eventId,
      type: "webhook.test",
      data: { webhookId: a.id },
      delivery: { id: res.deliveryId, attempt: 1 },
    });

    await patch(a.id, { status: "disabled" });
    expect(await sendTest(a.id)).toEqual({ eventId: expect.any(String) });
  });
});

describe("webhook URLs", () => {
  const privateUrls = [
    "http://127.0.0.1:8080/in",
    "http://0x7f.1/in",
    "http://127.1/in",
    "http://2130706433/in",
    "http://[::1]/in",
    "http://[::ffff:127.0.0.1]/in",
    "http://10.1.2.3/in",
    "http://192.168.0.10/in",
    "http://169.254.169.254/latest/meta-data",
    "http://[fe80::1]/in",
    "http://[fd00::1]/in",
  ];

  it.each(privateUrls)(
    "refuses %s at create and update with private_address on the url",
    async (url) => {
      await t.close();
      await open({});
      const createError = await expectError(await create({ url, events: ["*"] }), 400);
      expect(createError).toMatchObject({ code: "validation_failed" });
      expect(createError.issues).toEqual([
        {
          field: "url",
          code: "private_address",
          message: expect.stringMatching(/^url: .*private/),
        },
      ]);

      const { id } = await created({ url: "https://hooks.example.com/in", events: ["*"] });
      const updateError = await expectError(await patch(id, { url }), 400);
      expect(updateError.issues).toMatchObject([{ field: "url", code: "private_address" }]);
      expect((await getEndpoint(id)).url).toBe("https://hooks.example.com/in");

      const hookError = await expectError(await createHook({ targetUrl: url, event: "*" }), 400);
      expect(hookError.issues).toMatchObject([{ field: "targetUrl", code: "private_address" }]);
      expect(await listHooks()).toEqual([]);
    },
  );

  it("accepts private addresses when WEBHOOKS_ALLOW_PRIVATE is set, and names unresolved", async () => {
    for (const url of privateUrls) expect((await create({ url, events: ["*"] })).status).toBe(201);
    await t.close();
    await open({});
    // A name is not resolved when stored; its addresses are checked when a delivery connects.
    expect((await create({ url: "http://localhost:8080/in", events: ["*"] })).status).toBe(201);
    expect((await create({ url: "https://8.8.8.8/in", events: ["*"] })).status).toBe(201);
  });

  it.each([
    "https://user:pass@hooks.example.com/in",
    "https://user@hooks.example.com/in",
    "https://:pass@hooks.example.com/in",
  ])("refuses credentials in %s even when private addresses are allowed", async (url) => {
    const error = await expectError(await create({ url, events: ["*"] }), 400);
    expect(error.issues).toMatchObject([{ field: "url", code: "credentials_in_url" }]);
    const { id } = await created({ url: "https://hooks.example.com/in", events: ["*"] });
    const update = await expectError(await patch(id, { url }), 400);
    expect(update.issues).toMatchObject([{ field: "url", code: "credentials_in_url" }]);
    const hook = await expectError(await createHook({ targetUrl: url, event: "*" }), 400);
    expect(hook.issues).toMatchObject([{ field: "targetUrl", code: "credentials_in_url" }]);
  });

  it.each([
    ["a name that resolves to loopback", "localhost", null],
    ["an address stored while private addresses were allowed", "127.0.0.1", "127.0.0.1"],
    ["an IPv4-mapped address stored then", "[::ffff:127.0.0.1]", "[::ffff:127.0.0.1]"],
    ["an IPv6 loopback stored then", "[::1]", "[::1]"],
  ])("refuses to deliver to %s, and records why", async (_what, host, stored) => {
    await t.close();
    await open({});
    const { id } = await created({
      url: `http://${stored ? "hooks.example.com" : host}:${receiver.port}/in`,
      events: ["*"],
    });
    if (stored) {
      t.deps.db
        .prepare("UPDATE webhook_endpoints SET url = ?")
        .run(`http://${host}:${receiver.port}/in`);
    }
    t.deps.events.record(t.workspaceId, "member.joined", {});
    await t.deps.webhooks.runDue();
    expect(receiver.requests).toHaveLength(0);
    const [d] = await expectBody(
      await api().webhooks[":webhookId"].deliveries.$get({ ...webhook(id), query: {} }),
      200,
    );
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    expect(d!.lastError).toMatch(/^Refused: .* private, loopback or link-local address/);
  });
});

describe("deliveries", () => {
  type DeliveriesQuery = Parameters<
    ReturnType<typeof api>["webhooks"][":webhookId"]["deliveries"]["$get"]
  >[0]["query"];
  const deliveries = async (id: string, query: DeliveriesQuery = {}) =>
    api().webhooks[":webhookId"].deliveries.$get({ ...webhook(id), query });
  const detailOf = async (id: string, deliveryId: string) =>
    expectBody(
      await api().webhooks[":webhookId"].deliveries[":deliveryId"].$get(delivery(id, deliveryId)),
      200,
    );
  const retry = async (id: string, deliveryId: string) =>
    api().webhooks[":webhookId"].deliveries[":deliveryId"].retry.$post(delivery(id, deliveryId));

  it("lists with filters and pages, shows the detail, and retries a failed delivery now", async () => {
    const { id } = await created({ url: `${receiver.url}/in`, events: ["*"] });
    status = 500;
    responseBody = "x".repeat(10_000);
    t.deps.events.record(t.workspaceId, "member.joined", { n: 1 });
    clock.advance(1000);
    t.deps.events.record(t.workspaceId, "share.created", { n: 2 });
    clock.advance(1000);
    t.deps.events.record(t.workspaceId, "member.removed", { n: 3 });
    await t.deps.webhooks.runDue();
    status = 200;
    responseBody = "ok";
    clock.advance(60_000);
    await t.deps.webhooks.runDue();
    const list = async (query: DeliveriesQuery = {}) =>
      expectBody(await deliveries(id, query), 200);

    const all = await list();
    expect(all.map((x) => x.type)).toEqual(["member.removed", "share.created", "member.joined"]);
    expect(all[0]).toEqual({
      id: expect.any(String),
      eventId: expect.any(String),
      type: "member.removed",
      status: "delivered",
      attempts: 2,
      nextAttemptAt: new Date(clock.now()).toISOString(),
      lastStatusCode: 200,
      lastError: null,
      deliveredAt: new Date(clock.now()).toISOString(),
      createdAt: new Date(clock.now() - 60_000).toISOString(),
    });
    expect(await list({ type: "share.created" })).toHaveLength(1);
    expect(await list({ status: "failed" })).toHaveLength(0);
    expect(await list({ status: "delivered" })).toHaveLength(3);
    expect(await list({ since: new Date(clock.now() - 61_000).toISOString() })).toHaveLength(2);
    const page1 = await list({ limit: "2" });
    expect(page1).toHaveLength(2);
    const page2 = await list({ limit: "2", before: page1[1]!.id });
    expect(page2.map((x) => x.type)).toEqual(["member.joined"]);
    for (const bad of [
      { limit: "0" },
      { limit: "201" },
      { status: "lost" },
      { type: "nope" },
      { since: "yesterday" },
    ]) {
      expect((await deliveries(id, bad as never)).status, JSON.stringify(bad)).toBe(400);
    }

    const detail = await detailOf(id, page2[0]!.id);
    expect(detail.endpointId).toBe(id);
    expect(detail.request.url).toBe(`${receiver.url}/in`);
    expect(JSON.parse(detail.request.body)).toMatchObject({
      type: "member.joined",
      delivery: { attempt: 2 },
    });
    expect(detail.request.headers["Service-Signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(detail.attemptLog).toHaveLength(2);
    expect(detail.attemptLog[0]).toMatchObject({
      attempt: 1,
      manual: false,
      statusCode: 500,
      error: "HTTP 500",
      responseTruncated: true,
    });
    expect(detail.attemptLog[0]!.responseBody).toHaveLength(4096);
    expect(detail.attemptLog[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(detail.attemptLog[1]).toMatchObject({
      attempt: 2,
      statusCode: 200,
      error: null,
      responseBody: "ok",
    });

    // Drive one delivery to failed, then retry it by hand.
    status = 500;
    const eventId = t.deps.events.record(t.workspaceId, "share.revoked", {});
    for (let i = 0; i < 6; i++) {
      await t.deps.webhooks.runDue();
      clock.advance(13 * 3_600_000);
    }
    const failed = await list({ status: "failed" });
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ eventId, attempts: 6 });
    const retryFailed = async () => expectBody(await retry(id, failed[0]!.id), 200);

    // A manual resend that fails leaves it failed without restarting the schedule.
    clock.advance(1000);
    expect(await retryFailed()).toMatchObject({
      status: "failed",
      attempts: 7,
      lastStatusCode: 500,
      nextAttemptAt: new Date(clock.now()).toISOString(),
      deliveredAt: null,
      retried: true,
    });
    clock.advance(24 * 3_600_000);
    expect(await t.deps.webhooks.runDue()).toBe(0);

    status = 201;
    const retried = await retryFailed();
    expect(retried).toMatchObject({ status: "delivered", attempts: 8, lastStatusCode: 201 });
    expect(retried.attemptLog.at(-1)).toMatchObject({ attempt: 8, manual: true, statusCode: 201 });

    // A resend of a delivered delivery that fails leaves it delivered, when it first got through.
    status = 500;
    clock.advance(1000);
    expect(await retryFailed()).toMatchObject({
      status: "delivered",
      attempts: 9,
      lastStatusCode: 500,
      lastError: "HTTP 500",
      deliveredAt: retried.deliveredAt,
    });

    const unknown = "01aaaaaaaaaaaaaaaaaaaaaaaa";
    expect(
      (await api().webhooks[":webhookId"].deliveries[":deliveryId"].$get(delivery(id, unknown)))
        .status,
    ).toBe(404);
    expect((await retry(id, unknown)).status).toBe(404);
  });

  it("sends nothing twice when a retry finds an attempt in flight, and says so", async () => {
    const { id } = await created({ url: `${receiver.url}/in`, events: ["*"] });
    const { deliveryId } = await sendTest(id);
    t.deps.db
      .prepare("UPDATE webhook_deliveries SET lease_owner = 'other', lease_expires_at = ?")
      .run(clock.now() + 30_000);
    const res = await expectBody(await retry(id, deliveryId!), 200);
    expect(res).toMatchObject({ status: "pending", attempts: 0, retried: false });
    expect(receiver.requests).toHaveLength(0);
  });

  it("shows the request a delivery will send before its first attempt", async () => {
    const { id } = await created({ url: `${receiver.url}/in`, events: ["*"] });
    const { deliveryId } = await sendTest(id);
    const detail = await detailOf(id, deliveryId!);
    expect(detail.status).toBe("pending");
    expect(detail.attemptLog).toEqual([]);
    expect(JSON.parse(detail.request.body)).toMatchObject({
      type: "webhook.test",
      delivery: { attempt: 1 },
    });
  });
});

describe("REST hooks", () => {
  const hook = (hookId: string) => ({ param: { ...t.ws, hookId } });
  const setStatus = (id: string, json: { status: "active" | "disabled" }) =>
    api().hooks[":hookId"].$patch({ ...hook(id), json });
  const samples = (eventType: string) =>
    api().hooks.samples[":eventType"].$get({ param: { ...t.ws, eventType } });

  it("subscribes, delivers signed payloads, offers samples, unsubscribes", async () => {
    const res = await expectBody(
      await createHook({ targetUrl: `${receiver.url}/zap`, event: "share.created" }),
      201,
    );
    expect(res).toMatchObject({
      targetUrl: `${receiver.url}/zap`,
      event: "share.created",
      status: "active",
    });
    expect(res.secret).toMatch(/^whsec_/);
    expect(await listHooks()).toEqual([
      {
        id: res.id,
        targetUrl: `${receiver.url}/zap`,
        event: "share.created",
        status: "active",
        createdAt: expect.any(String),
      },
    ]);
    // REST hooks are not webhook endpoints.
    expect(await expectBody(await api().webhooks.$get({ param: t.ws }), 200)).toEqual([]);

    const sample = await expectBody(await samples("share.created"), 200);
    expect(sample).toHaveLength(1);
    expect(sample[0]).toMatchObject({
      id: "sample",
      type: "share.created",
      data: { shareId: expect.any(String) },
    });

    t.deps.events.record(t.workspaceId, "member.joined", {});
    const eventId = t.deps.events.record(t.workspaceId, "share.created", { shareId: "s1" });
    await t.deps.webhooks.runDue();
    expect(receiver.requests).toHaveLength(1);
    expect(JSON.parse(receiver.requests[0]!.body)).toMatchObject({
      id: eventId,
      data: { shareId: "s1" },
    });
    expect(receiver.requests[0]!.headers["service-signature"]).toMatch(/^t=\d+,v1=/);
    expect((await expectBody(await samples("share.created"), 200))[0]).toEqual({
      id: eventId,
      type: "share.created",
      createdAt: new Date(clock.now()).toISOString(),
      workspaceId: t.workspaceId,
      data: { shareId: "s1" },
      delivery: { id: "sample", attempt: 1 },
    });
    expect((await samples("nope")).status).toBe(400);

    expect((await api().hooks[":hookId"].$delete(hook(res.id))).status).toBe(204);
    expect((await api().hooks[":hookId"].$delete(hook(res.id))).status).toBe(404);
    expect(
      (await createHook({ targetUrl: "ftp://x.example", event: "share.created" })).status,
    ).toBe(400);
    expect((await createHook({ targetUrl: "https://x.example", event: "nope" })).status).toBe(400);
  });

  it("re-enables a disabled REST hook, resetting its count and releasing held deliveries", async () => {
    status = 500;
    const { id } = await expectBody(
      await createHook({ targetUrl: `${receiver.url}/zap`, event: "*" }),
      201,
    );
    for (let i = 0; i < 21; i++) {
      t.deps.events.record(t.workspaceId, "member.joined", {});
      await t.deps.webhooks.runDue();
    }
    expect((await listHooks())[0]).toMatchObject({ id, status: "disabled" });
    const sent = receiver.requests.length;

    status = 200;
    clock.advance(60_000);
    expect(await expectBody(await setStatus(id, { status: "active" }), 200)).toEqual({
      id,
      targetUrl: `${receiver.url}/zap`,
      event: "*",
      status: "active",
      createdAt: expect.any(String),
    });
    expect(
      t.deps.db.prepare("SELECT failure_count FROM webhook_endpoints WHERE id = ?").pluck().get(id),
    ).toBe(0);
    expect(await t.deps.webhooks.runDue()).toBe(20);
    expect(receiver.requests).toHaveLength(sent + 20);

    const off = await expectBody(await setStatus(id, { status: "disabled" }), 200);
    expect(off.status).toBe("disabled");
    t.deps.events.record(t.workspaceId, "member.joined", {});
    expect(await t.deps.webhooks.runDue()).toBe(0);

    for (const body of [{}, { status: "paused" }]) {
      const bad = await expectError(await setStatus(id, body as never), 400);
      expect(bad.issues[0]!.field).toBe("status");
    }
    const endpoint = await created({ url: "https://example.com/a", events: ["*"] });
    for (const unknown of ["01aaaaaaaaaaaaaaaaaaaaaaaa", endpoint.id]) {
      const error = await expectError(await setStatus(unknown, { status: "active" }), 404);
      expect(error.code).toBe("not_found");
    }
  });

  it("stops a REST hook whose target answers 410 Gone", async () => {
    status = 410;
    const { id } = await expectBody(
      await createHook({ targetUrl: `${receiver.url}/zap`, event: "*" }),
      201,
    );
    t.deps.events.record(t.workspaceId, "member.joined", {});
    await t.deps.webhooks.runDue();
    expect((await listHooks())[0]).toMatchObject({ id, status: "disabled" });
  });
});

describe("access", () => {
  // A table of every operation, each with a made-up id: untyped calls, one loop for all.
  const routes: Array<[string, string]> = [
    ["GET", "/webhooks/events"],
    ["POST", "/webhooks"],
    ["GET", "/webhooks"],
    ["GET", "/webhooks/x1"],
    ["PATCH", "/webhooks/x1"],
    ["DELETE", "/webhooks/x1"],
    ["POST", "/webhooks/x1/rotate-secret"],
    ["POST", "/webhooks/x1/test"],
    ["GET", "/webhooks/x1/deliveries"],
    ["GET", "/webhooks/x1/deliveries/d1"],
    ["POST", "/webhooks/x1/deliveries/d1/retry"],
    ["POST", "/hooks"],
    ["GET", "/hooks"],
    ["PATCH", "/hooks/h1"],
    ["DELETE", "/hooks/h1"],
    ["GET", "/hooks/samples/share.created"],
    ["GET", "/events"],
  ];

  it.each(routes)("%s %s needs a key (401) with webhooks:manage (403)", async (method, path) => {
    const body = method === "GET" ? undefined : {};
    const none = await t.call(method, t.w(path), { key: null, body });
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe("unauthenticated");
    const res = await t.call(method, t.w(path), {
      key: t.keyWith(["files:read", "files:write"]),
      body,
    });
    expect(res.status).toBe(403);
    expect(res.json.error.details).toMatchObject({
      reason: "missing_scope",
      requiredScopes: ["webhooks:manage"],
    });
  });

  it("documents every operation with its scope and a summary", async () => {
    const doc = (await t.call("GET", "/v1/openapi.json", { key: null })).json;
    for (const [method, path] of routes) {
      const key = `/workspaces/{workspaceId}${path
        .replace("x1", "{webhookId}")
        .replace("d1", "{deliveryId}")
        .replace("h1", "{hookId}")
        .replace("samples/share.created", "samples/{eventType}")}`;
      const op = doc.paths[key]?.[method.toLowerCase()];
      expect(op, `${method} ${key}`).toBeDefined();
      expect(op["x-scopes"]).toEqual(["webhooks:manage"]);
      expect(op.summary.length).toBeGreaterThan(10);
    }
    expect(doc.paths["/workspaces/{workspaceId}/hooks/{hookId}"].patch["x-consign-extension"]).toBe(
      true,
    );
    expect(doc.components.schemas.WebhookRetryResult.properties.retried.description).toMatch(
      /^Extension: false when an attempt/,
    );
  });
});
