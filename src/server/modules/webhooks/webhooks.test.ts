import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventTypes } from "@/contract/events";
import { ManualClock } from "@/server/lib/clock";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { startReceiver } from "./test-receiver";

let clock: ManualClock;
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let status = 200;
let responseBody = "ok";

beforeEach(async () => {
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  t = await createTestApp({ clock, config: { webhooksAllowPrivate: true } });
  await t.deps.webhooks.stop();
  status = 200;
  responseBody = "ok";
  receiver = await startReceiver(() => ({ status, body: responseBody }));
});
afterEach(async () => {
  await receiver.close();
  await t.close();
});

const create = (body: unknown) => t.call("POST", t.w("/webhooks"), { body });

describe("webhook endpoints", () => {
  it("lists the catalogue", async () => {
    const res = await t.call("GET", t.w("/webhooks/events"));
    expect(res.status).toBe(200);
    expect(res.json.events).toEqual(eventTypes);
    expect(res.json.events).toHaveLength(12);
  });

  it("returns the secret on creation and rotation only, and never stores it in clear", async () => {
    const res = await create({
      url: `${receiver.url}/in`,
      events: ["share.created", "*"],
      description: "CI",
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      url: `${receiver.url}/in`,
      description: "CI",
      events: ["share.created", "*"],
      status: "active",
      failureCount: 0,
      lastDeliveryAt: null,
      nextAttemptAt: null,
      createdAt: new Date(clock.now()).toISOString(),
    });
    const { id, secret } = res.json;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);

    const list = await t.call("GET", t.w("/webhooks"));
    expect(list.json).toHaveLength(1);
    expect(list.json[0]).not.toHaveProperty("secret");
    expect(list.text).not.toContain(secret);
    const one = await t.call("GET", t.w(`/webhooks/${id}`));
    expect(one.json).not.toHaveProperty("secret");
    const patched = await t.call("PATCH", t.w(`/webhooks/${id}`), { body: { description: null } });
    expect(patched.text).not.toContain("whsec_");

    const rotated = await t.call("POST", t.w(`/webhooks/${id}/rotate-secret`));
    expect(rotated.status).toBe(201);
    expect(rotated.json).toEqual({ id, secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{32}$/) });
    expect(rotated.json.secret).not.toBe(secret);

    const stored = t.deps.db
      .prepare("SELECT secret_sealed FROM webhook_endpoints")
      .pluck()
      .get() as string;
    expect(stored).not.toContain(rotated.json.secret.slice(6));
    expect(t.deps.webhooks.secrets.open(stored)).toBe(rotated.json.secret);
  });

  it.each([
    [{ url: "ftp://example.com/x", events: ["*"] }, "url"],
    [{ url: "javascript:alert(1)", events: ["*"] }, "url"],
    [{ url: "http://", events: ["*"] }, "url"],
    [{ url: `https://example.com/${"a".repeat(2048)}`, events: ["*"] }, "url"],
    [{ url: "https://example.com", events: [] }, "events"],
    [{ url: "https://example.com", events: ["file.created"] }, "events.0"],
    [{ url: "https://example.com", events: ["webhook.test"] }, "events.0"],
    [{ url: "https://example.com", events: Array(51).fill("*") }, "events"],
    [{ url: "https://example.com", events: ["*"], description: "d".repeat(201) }, "description"],
    [{ events: ["*"] }, "url"],
  ])("refuses %j with validation_failed on %s", async (body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
    expect(res.json.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
  });

  it("updates, disables, re-enables (resetting the count) and deletes", async () => {
    const { id } = (await create({ url: "https://example.com/a", events: ["*"] })).json;
    t.deps.db.prepare("UPDATE webhook_endpoints SET failure_count = 7").run();
    const res = await t.call("PATCH", t.w(`/webhooks/${id}`), {
      body: {
        url: "https://example.com/b",
        events: ["member.joined"],
        description: "new",
        status: "disabled",
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      url: "https://example.com/b",
      events: ["member.joined"],
      description: "new",
      status: "disabled",
      failureCount: 7,
    });
    const enabled = await t.call("PATCH", t.w(`/webhooks/${id}`), { body: { status: "active" } });
    expect(enabled.json).toMatchObject({ status: "active", failureCount: 0 });
    expect(
      (await t.call("PATCH", t.w(`/webhooks/${id}`), { body: { url: "gopher://x.example" } }))
        .status,
    ).toBe(400);

    const del = await t.call("DELETE", t.w(`/webhooks/${id}`));
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await t.call("GET", t.w(`/webhooks/${id}`))).status).toBe(404);
    expect((await t.call("DELETE", t.w(`/webhooks/${id}`))).status).toBe(404);
    expect((await t.call("PATCH", t.w(`/webhooks/${id}`), { body: {} })).json.error.code).toBe(
      "not_found",
    );
  });

  it("sends a test event to that endpoint only", async () => {
    const a = (await create({ url: `${receiver.url}/a`, events: ["member.joined"] })).json;
    await create({ url: `${receiver.url}/b`, events: ["*"] });
    const res = await t.call("POST", t.w(`/webhooks/${a.id}/test`));
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ eventId: expect.any(String), deliveryId: expect.any(String) });
    await t.deps.webhooks.runDue();
    expect(receiver.requests.map((r) => r.path)).toEqual(["/a"]);
    expect(JSON.parse(receiver.requests[0]!.body)).toMatchObject({
      id: res.json.eventId,
      type: "webhook.test",
      data: { webhookId: a.id },
      delivery: { id: res.json.deliveryId, attempt: 1 },
    });

    await t.call("PATCH", t.w(`/webhooks/${a.id}`), { body: { status: "disabled" } });
    const off = await t.call("POST", t.w(`/webhooks/${a.id}/test`));
    expect(off.status).toBe(201);
    expect(off.json).toEqual({ eventId: expect.any(String) });
  });
});

describe("deliveries", () => {
  it("lists with filters and pages, shows the detail, and retries a failed delivery now", async () => {
    const { id } = (await create({ url: `${receiver.url}/in`, events: ["*"] })).json;
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
    const d = (q = "") => t.call("GET", t.w(`/webhooks/${id}/deliveries${q}`));

    const all = await d();
    expect(all.status).toBe(200);
    expect(all.json.map((x: { type: string }) => x.type)).toEqual([
      "member.removed",
      "share.created",
      "member.joined",
    ]);
    expect(all.json[0]).toEqual({
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
    expect((await d("?type=share.created")).json).toHaveLength(1);
    expect((await d("?status=failed")).json).toHaveLength(0);
    expect((await d("?status=delivered")).json).toHaveLength(3);
    const since = new Date(clock.now() - 61_000).toISOString();
    expect((await d(`?since=${encodeURIComponent(since)}`)).json).toHaveLength(2);
    const page1 = (await d("?limit=2")).json;
    expect(page1).toHaveLength(2);
    const page2 = (await d(`?limit=2&before=${page1[1].id}`)).json;
    expect(page2.map((x: { type: string }) => x.type)).toEqual(["member.joined"]);
    for (const bad of [
      "?limit=0",
      "?limit=201",
      "?status=lost",
      "?type=nope",
      "?since=yesterday",
    ]) {
      expect((await d(bad)).status, bad).toBe(400);
    }

    const detail = (await t.call("GET", t.w(`/webhooks/${id}/deliveries/${page2[0].id}`))).json;
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
    expect(detail.attemptLog[0].responseBody).toHaveLength(4096);
    expect(detail.attemptLog[0].durationMs).toBeGreaterThanOrEqual(0);
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
    const failed = (await d("?status=failed")).json;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ eventId, attempts: 6 });
    const retry = () => t.call("POST", t.w(`/webhooks/${id}/deliveries/${failed[0].id}/retry`));

    // A manual resend that fails leaves it failed without restarting the schedule.
    clock.advance(1000);
    const stillFailed = await retry();
    expect(stillFailed.status).toBe(200);
    expect(stillFailed.json).toMatchObject({
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
    const retried = await retry();
    expect(retried.json).toMatchObject({ status: "delivered", attempts: 8, lastStatusCode: 201 });
    expect(retried.json.attemptLog.at(-1)).toMatchObject({
      attempt: 8,
      manual: true,
      statusCode: 201,
    });

    // A resend of a delivered delivery that fails leaves it delivered, when it first got through.
    status = 500;
    clock.advance(1000);
    const again = await retry();
    expect(again.json).toMatchObject({
      status: "delivered",
      attempts: 9,
      lastStatusCode: 500,
      lastError: "HTTP 500",
      deliveredAt: retried.json.deliveredAt,
    });

    expect(
      (await t.call("GET", t.w(`/webhooks/${id}/deliveries/01aaaaaaaaaaaaaaaaaaaaaaaa`))).status,
    ).toBe(404);
    expect(
      (await t.call("POST", t.w(`/webhooks/${id}/deliveries/01aaaaaaaaaaaaaaaaaaaaaaaa/retry`)))
        .status,
    ).toBe(404);
  });

  it("sends nothing twice when a retry finds an attempt in flight, and says so", async () => {
    const { id } = (await create({ url: `${receiver.url}/in`, events: ["*"] })).json;
    const { deliveryId } = (await t.call("POST", t.w(`/webhooks/${id}/test`))).json;
    t.deps.db
      .prepare("UPDATE webhook_deliveries SET lease_owner = 'other', lease_expires_at = ?")
      .run(clock.now() + 30_000);
    const res = await t.call("POST", t.w(`/webhooks/${id}/deliveries/${deliveryId}/retry`));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "pending", attempts: 0, retried: false });
    expect(receiver.requests).toHaveLength(0);
  });

  it("shows the request a delivery will send before its first attempt", async () => {
    const { id } = (await create({ url: `${receiver.url}/in`, events: ["*"] })).json;
    const { deliveryId } = (await t.call("POST", t.w(`/webhooks/${id}/test`))).json;
    const detail = (await t.call("GET", t.w(`/webhooks/${id}/deliveries/${deliveryId}`))).json;
    expect(detail.status).toBe("pending");
    expect(detail.attemptLog).toEqual([]);
    expect(JSON.parse(detail.request.body)).toMatchObject({
      type: "webhook.test",
      delivery: { attempt: 1 },
    });
  });
});

describe("private addresses", () => {
  it.each([["127.0.0.1"], ["localhost"], ["[::ffff:127.0.0.1]"], ["[::1]"]])(
    "refuses to deliver to %s unless allowed, and records why",
    async (host) => {
      await t.close();
      t = await createTestApp({ clock });
      await t.deps.webhooks.stop();
      const { id } = (await create({ url: `http://${host}:${receiver.port}/in`, events: ["*"] }))
        .json;
      t.deps.events.record(t.workspaceId, "member.joined", {});
      await t.deps.webhooks.runDue();
      expect(receiver.requests).toHaveLength(0);
      const [d] = (await t.call("GET", t.w(`/webhooks/${id}/deliveries`))).json;
      expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
      expect(d.lastError).toMatch(/^Refused: .* private, loopback or link-local address/);
    },
  );
});

describe("REST hooks", () => {
  it("subscribes, delivers signed payloads, offers samples, unsubscribes", async () => {
    const res = await t.call("POST", t.w("/hooks"), {
      body: { targetUrl: `${receiver.url}/zap`, event: "share.created" },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      targetUrl: `${receiver.url}/zap`,
      event: "share.created",
      status: "active",
    });
    expect(res.json.secret).toMatch(/^whsec_/);
    expect((await t.call("GET", t.w("/hooks"))).json).toEqual([
      {
        id: res.json.id,
        targetUrl: `${receiver.url}/zap`,
        event: "share.created",
        status: "active",
        createdAt: expect.any(String),
      },
    ]);
    // REST hooks are not webhook endpoints.
    expect((await t.call("GET", t.w("/webhooks"))).json).toEqual([]);

    const sample = await t.call("GET", t.w("/hooks/samples/share.created"));
    expect(sample.status).toBe(200);
    expect(sample.json).toHaveLength(1);
    expect(sample.json[0]).toMatchObject({
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
    expect((await t.call("GET", t.w("/hooks/samples/share.created"))).json[0]).toMatchObject({
      id: eventId,
    });
    expect((await t.call("GET", t.w("/hooks/samples/nope"))).status).toBe(400);

    expect((await t.call("DELETE", t.w(`/hooks/${res.json.id}`))).status).toBe(204);
    expect((await t.call("DELETE", t.w(`/hooks/${res.json.id}`))).status).toBe(404);
    expect(
      (
        await t.call("POST", t.w("/hooks"), {
          body: { targetUrl: "ftp://x.example", event: "share.created" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.call("POST", t.w("/hooks"), {
          body: { targetUrl: "https://x.example", event: "nope" },
        })
      ).status,
    ).toBe(400);
  });

  it("re-enables a disabled REST hook, resetting its count and releasing held deliveries", async () => {
    status = 500;
    const { id } = (
      await t.call("POST", t.w("/hooks"), {
        body: { targetUrl: `${receiver.url}/zap`, event: "*" },
      })
    ).json;
    for (let i = 0; i < 21; i++) {
      t.deps.events.record(t.workspaceId, "member.joined", {});
      await t.deps.webhooks.runDue();
    }
    expect((await t.call("GET", t.w("/hooks"))).json[0]).toMatchObject({ id, status: "disabled" });
    const sent = receiver.requests.length;

    status = 200;
    clock.advance(60_000);
    const res = await t.call("PATCH", t.w(`/hooks/${id}`), { body: { status: "active" } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
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

    const off = await t.call("PATCH", t.w(`/hooks/${id}`), { body: { status: "disabled" } });
    expect(off.json.status).toBe("disabled");
    t.deps.events.record(t.workspaceId, "member.joined", {});
    expect(await t.deps.webhooks.runDue()).toBe(0);

    for (const body of [{}, { status: "paused" }]) {
      const bad = await t.call("PATCH", t.w(`/hooks/${id}`), { body });
      expect(bad.status).toBe(400);
      expect(bad.json.error.details.issues[0].field).toBe("status");
    }
    const webhook = (await create({ url: "https://example.com/a", events: ["*"] })).json;
    for (const unknown of ["01aaaaaaaaaaaaaaaaaaaaaaaa", webhook.id]) {
      const res404 = await t.call("PATCH", t.w(`/hooks/${unknown}`), {
        body: { status: "active" },
      });
      expect(res404.status).toBe(404);
      expect(res404.json.error.code).toBe("not_found");
    }
  });

  it("stops a REST hook whose target answers 410 Gone", async () => {
    status = 410;
    const { id } = (
      await t.call("POST", t.w("/hooks"), {
        body: { targetUrl: `${receiver.url}/zap`, event: "*" },
      })
    ).json;
    t.deps.events.record(t.workspaceId, "member.joined", {});
    await t.deps.webhooks.runDue();
    expect((await t.call("GET", t.w("/hooks"))).json[0]).toMatchObject({ id, status: "disabled" });
  });
});

describe("access", () => {
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
