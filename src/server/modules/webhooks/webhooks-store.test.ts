import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER } from "@/contract/webhooks";
import { refusal } from "@/server/testing/engine-suites";
import { SecretBox } from "./secret-box";
import { signatureHeader } from "./signing";
import { box, ENGINES, type Engine, keys, NOW, SECRETS, T0 } from "./webhooks-store.seed";

const iso = (ms: number) => new Date(ms).toISOString();
const E1 = {
  id: "e1",
  url: "https://a.example/hook",
  description: "Main",
  events: ["*"],
  status: "active",
  failureCount: 0,
  lastDeliveryAt: iso(T0 + 50),
  createdAt: iso(T0),
  nextAttemptAt: iso(T0 + 3_600_000),
};
const E2 = {
  id: "e2",
  url: "https://b.example/",
  description: null,
  events: ["share.created", "share.revoked"],
  status: "disabled",
  failureCount: 20,
  lastDeliveryAt: iso(T0 + 60),
  createdAt: iso(T0 + 1),
  nextAttemptAt: null,
};
const H1 = {
  id: "h1",
  targetUrl: "https://zap.example/h",
  event: "share.created",
  status: "active",
  createdAt: iso(T0 + 2),
};
const missing = (what: string, details: Record<string, string>) => ({
  status: 404,
  code: "not_found",
  message: `${what} was not found`,
  details,
});
const webhook404 = (id: string) => missing("Webhook endpoint", { webhookId: id });
const hook404 = (id: string) => missing("REST hook", { hookId: id });
const delivery404 = (id: string) => missing("Delivery", { deliveryId: id });

const endpointRow = async (e: Engine, id: string) =>
  (await e.rows(`SELECT * FROM webhook_endpoints WHERE id = '${id}'`))[0]!;
const held = async (e: Engine, endpoint: string) =>
  (
    await e.rows(
      `SELECT id, held FROM webhook_deliveries WHERE endpoint_id = '${endpoint}' ORDER BY id`,
    )
  ).map((r) => [r.id, Number(r.held)]);

describe.each(ENGINES)("the webhooks store on $engine", ({ use }) => {
  const open = use();

  it("lists and reads one workspace's endpoints and hooks, each with its next due attempt", async () => {
    const { store } = open();
    expect(await store.listWebhooks("ws")).toEqual([E1, E2]);
    expect(await store.getWebhook("ws", "e2")).toEqual(E2);
    expect(await store.listHooks("ws")).toEqual([H1]);
    expect((await store.listWebhooks("ws2")).map((e) => e.id)).toEqual(["x1"]);
    expect(await store.listHooks("ws2")).toEqual([]);
    const latest = await store.latestEvents("ws", "share.created", 3);
    expect(latest.map((e) => [e.id, e.data])).toEqual([
      ["ev3", { shareId: "s2", title: "Ölm — 東京" }],
      ["ev1", { shareId: "s1" }],
    ]);
    expect(latest[0]).toMatchObject({
      type: "share.created",
      workspaceId: "ws",
      createdAt: iso(T0 + 30),
    });
  });

  it("refuses unknown ids, other workspaces' and the other kind's alike, before any write", async () => {
    const { store } = open();
    const attempt = async () => {
      throw new Error("not attempted");
    };
    expect(await refusal(store.getWebhook("ws", "h1"))).toEqual(webhook404("h1"));
    expect(await refusal(store.getWebhook("ws2", "e1"))).toEqual(webhook404("e1"));
    expect(await refusal(store.updateWebhook("ws", "nope", { url: "https://n/" }))).toEqual(
      webhook404("nope"),
    );
    expect(await refusal(store.deleteWebhook("ws2", "e1"))).toEqual(webhook404("e1"));
    expect(await refusal(store.rotateSecret("ws", "h1"))).toEqual(webhook404("h1"));
    expect(await refusal(store.testWebhook("ws2", "e1"))).toEqual(webhook404("e1"));
    expect(await refusal(store.listDeliveries("ws", "x1", { limit: 5 }))).toEqual(webhook404("x1"));
    expect(await refusal(store.getDelivery("ws", "e1", "d4"))).toEqual(delivery404("d4"));
    expect(await refusal(store.getDelivery("ws2", "e1", "d1"))).toEqual(webhook404("e1"));
    expect(await refusal(store.retryDelivery("ws", "e2", "d1", attempt))).toEqual(
      delivery404("d1"),
    );
    expect(await refusal(store.updateHook("ws", "e1", { status: "disabled" }))).toEqual(
      hook404("e1"),
    );
    expect(await refusal(store.deleteHook("ws", "e1"))).toEqual(hook404("e1"));
    expect(await store.listWebhooks("ws")).toEqual([E1, E2]);
    expect((await endpointRow(open(), "e1")).secret_sealed).toBeTruthy();
    expect(box.open((await endpointRow(open(), "e1")).secret_sealed as string)).toBe(SECRETS.e1);
  });

  it("pages an endpoint's deliveries newest first under each filter", async () => {
    const { store } = open();
    const ids = async (q: Parameters<typeof store.listDeliveries>[2]) =>
      (await store.listDeliveries("ws", "e1", q)).map((d) => d.id);
    expect(await ids({ limit: 10 })).toEqual(["d3", "d2", "d1"]);
    expect(await ids({ limit: 2 })).toEqual(["d3", "d2"]);
    expect(await ids({ limit: 2, before: "d2" })).toEqual(["d1"]);
    expect(await ids({ limit: 10, status: "failed" })).toEqual(["d2"]);
    expect(await ids({ limit: 10, type: "share.created" })).toEqual(["d3", "d1"]);
    expect(await ids({ limit: 10, since: iso(T0 + 20) })).toEqual(["d3", "d2"]);
    expect(await ids({ limit: 10, status: "pending", type: "member.joined" })).toEqual([]);
    expect((await store.listDeliveries("ws", "e1", { limit: 1, before: "d2" }))[0]).toEqual({
      id: "d1",
      eventId: "ev1",
      type: "share.created",
      status: "delivered",
      attempts: 1,
      nextAttemptAt: iso(T0 + 10),
      lastStatusCode: 200,
      lastError: null,
      deliveredAt: iso(T0 + 11),
      createdAt: iso(T0 + 10),
    });
  });

  it("reads a delivery with its attempt log, and before any attempt the next request, signed now", async () => {
    const { store } = open();
    const failed = await store.getDelivery("ws", "e1", "d2");
    expect(failed.request).toEqual({
      url: "https://sent.example/d2/2",
      headers: { "X-Attempt": "2" },
      body: '{"attempt":2}',
    });
    expect(failed.attemptLog.map((a) => [a.attempt, a.manual, a.statusCode, a.startedAt])).toEqual([
      [1, false, 500, iso(T0 + 100)],
      [2, true, 500, iso(T0 + 200)],
    ]);
    expect(failed.attemptLog[0]).toMatchObject({
      durationMs: 12,
      responseBody: "nope",
      responseTruncated: false,
    });
    const next = await store.getDelivery("ws", "e1", "d3");
    expect(next).toMatchObject({ id: "d3", endpointId: "e1", status: "pending", attemptLog: [] });
    const body = `{"id":"ev3","type":"share.created","createdAt":"${iso(T0 + 30)}","workspaceId":"ws","data":{"shareId":"s2","title":"Ölm — 東京"},"delivery":{"id":"d3","attempt":1}}`;
    expect(next.request).toEqual({
      url: "https://a.example/hook",
      body,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Consign-Webhooks/1.0",
        [SIGNATURE_HEADER]: signatureHeader(SECRETS.e1!, body, Math.floor(NOW / 1000)),
        [EVENT_HEADER]: "share.created",
        [DELIVERY_HEADER]: "d3",
      },
    });
  });

  it("retries a found delivery once, and answers 404 for it when its endpoint went meanwhile", async () => {
    const e = open();
    const calls: string[] = [];
    const result = await e.store.retryDelivery("ws", "e1", "d2", async (id) => {
      calls.push(id);
      return false;
    });
    expect(calls).toEqual(["d2"]);
    expect(result).toMatchObject({ id: "d2", retried: false, attempts: 2, status: "failed" });
    const refused = e.store.retryDelivery("ws", "e2", "d5", async () => {
      await e.store.deleteWebhook("ws", "e2");
      return true;
    });
    expect(await refusal(refused)).toEqual(delivery404("d5"));
    expect(await e.rows("SELECT id FROM webhook_deliveries WHERE endpoint_id = 'e2'")).toEqual([]);
    expect(
      await e.rows("SELECT delivery_id FROM webhook_attempts WHERE delivery_id = 'd5'"),
    ).toEqual([]);
    expect((await e.store.listWebhooks("ws")).map((w) => w.id)).toEqual(["e1"]);
  });
});

describe.each(ENGINES)("the webhooks store's writes on $engine", ({ use }) => {
  const open = use();

  it("creates a webhook and a hook, showing each secret once and storing it sealed", async () => {
    const e = open();
    const created = await e.store.createWebhook("ws", {
      url: "https://new.example/in",
      events: ["share.created", "share.created", "member.joined"],
    });
    const { id, secret, ...view } = created;
    expect(view).toEqual({
      url: "https://new.example/in",
      description: null,
      events: ["share.created", "member.joined"],
      status: "active",
      failureCount: 0,
      lastDeliveryAt: null,
      createdAt: iso(NOW),
      nextAttemptAt: null,
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    const row = await endpointRow(e, id);
    expect(row).toMatchObject({
      workspace_id: "ws",
      kind: "webhook",
      events: '["share.created","member.joined"]',
    });
    expect(row.secret_sealed).not.toContain(secret.slice(6));
    expect(box.open(row.secret_sealed as string)).toBe(secret);
    expect((await e.store.listWebhooks("ws")).map((w) => w.id)).toEqual([id, "e1", "e2"]); // byte order: ids made now start with a digit

    const hook = await e.store.createHook("ws", {
      targetUrl: "https://zap.example/2",
      event: "share.revoked",
    });
    expect(hook).toMatchObject({
      targetUrl: "https://zap.example/2",
      event: "share.revoked",
      status: "active",
    });
    expect(box.open((await endpointRow(e, hook.id)).secret_sealed as string)).toBe(hook.secret);
    expect((await e.store.listHooks("ws")).map((h) => h.id)).toEqual([hook.id, "h1"]);
  });

  it("rotates a secret: the new one opens from the row, the old one no longer does", async () => {
    const e = open();
    const rotated = await e.store.rotateSecret("ws", "e1");
    expect(rotated.id).toBe("e1");
    expect(rotated.secret).not.toBe(SECRETS.e1);
    expect(box.open((await endpointRow(e, "e1")).secret_sealed as string)).toBe(rotated.secret);
    expect(box.open((await endpointRow(e, "x1")).secret_sealed as string)).toBe(SECRETS.x1);
  });

  it("re-enabling releases the held deliveries and resets the count; disabling holds them again", async () => {
    const e = open();
    expect(await held(e, "e2")).toEqual([
      ["d4", 1],
      ["d5", 1],
    ]);
    const patched = await e.store.updateWebhook("ws", "e2", {
      status: "active",
      url: "https://b.example/v2",
      description: "Back",
      events: ["*", "*"],
    });
    expect(patched).toEqual({
      ...E2,
      url: "https://b.example/v2",
      description: "Back",
      events: ["*"],
      status: "active",
      failureCount: 0,
      nextAttemptAt: iso(T0 + 30),
    });
    expect(await held(e, "e2")).toEqual([
      ["d4", 0],
      ["d5", 0],
    ]);
    const disabled = await e.store.updateWebhook("ws", "e2", { status: "disabled" });
    expect(disabled).toMatchObject({ status: "disabled", failureCount: 0, nextAttemptAt: null });
    expect(await held(e, "e2")).toEqual([
      ["d4", 1],
      ["d5", 1],
    ]);
    expect(await e.store.updateWebhook("ws", "e1", {})).toEqual(
      await e.store.getWebhook("ws", "e1"),
    );

    expect(await e.store.updateHook("ws", "h1", { status: "disabled" })).toEqual({
      ...H1,
      status: "disabled",
    });
    expect(await e.store.listHooks("ws")).toContainEqual({ ...H1, status: "disabled" });
  });

  it("records a test event, with a delivery to the endpoint while it is active and none while not", async () => {
    const e = open();
    const sent = await e.store.testWebhook("ws", "e1");
    expect(sent.deliveryId).toBeDefined();
    const skipped = await e.store.testWebhook("ws", "e2");
    expect(skipped).toEqual({ eventId: skipped.eventId });
    const events = await e.rows(
      "SELECT id, type, data, created_at FROM events WHERE type = 'webhook.test' ORDER BY seq",
    );
    expect(events).toEqual([
      {
        id: sent.eventId,
        type: "webhook.test",
        data: JSON.stringify({ webhookId: "e1", message: "A test event from Consign" }),
        created_at: NOW,
      },
      {
        id: skipped.eventId,
        type: "webhook.test",
        data: JSON.stringify({ webhookId: "e2", message: "A test event from Consign" }),
        created_at: NOW,
      },
    ]);
    const deliveries = await e.rows(
      "SELECT id, endpoint_id, event_id, status, attempts, next_attempt_at FROM webhook_deliveries WHERE event_type = 'webhook.test'",
    );
    expect(deliveries).toEqual([
      {
        id: sent.deliveryId,
        endpoint_id: "e1",
        event_id: sent.eventId,
        status: "pending",
        attempts: 0,
        next_attempt_at: NOW,
      },
    ]);
    expect((await e.store.getWebhook("ws", "e1")).nextAttemptAt).toBe(iso(NOW));
  });

  it("deletes a webhook with its deliveries and attempts, and a hook, once", async () => {
    const e = open();
    await e.store.deleteWebhook("ws", "e1");
    expect(await refusal(e.store.deleteWebhook("ws", "e1"))).toEqual(webhook404("e1"));
    expect(await e.rows("SELECT id FROM webhook_deliveries WHERE endpoint_id = 'e1'")).toEqual([]);
    expect(
      await e.rows("SELECT attempt FROM webhook_attempts WHERE delivery_id IN ('d1', 'd2')"),
    ).toEqual([]);
    await e.store.deleteHook("ws", "h1");
    expect(await refusal(e.store.deleteHook("ws", "h1"))).toEqual(hook404("h1"));
    expect(
      await e.rows(
        "SELECT id FROM webhook_endpoints WHERE id IN ('e1', 'e2', 'h1', 'x1') ORDER BY id",
      ),
    ).toEqual([{ id: "e2" }, { id: "x1" }]);
  });
});

describe.each(ENGINES)("the webhooks store with its key file lost, on $engine", ({ use }) => {
  const open = use();

  it("still answers 404 for an unknown id, and refuses to seal for a known one", async () => {
    const { store } = open();
    const lost = path.join(os.tmpdir(), `consign-lost-${process.pid}`, "webhook-secrets.key");
    keys.box = new SecretBox(lost, () => true);
    try {
      expect(await refusal(store.rotateSecret("ws", "nope"))).toEqual(webhook404("nope"));
      await expect(store.rotateSecret("ws", "e1")).rejects.toThrow(`${lost} is missing`);
      await expect(
        store.createWebhook("ws", { url: "https://n.example/", events: ["*"] }),
      ).rejects.toThrow(`${lost} is missing`);
    } finally {
      keys.box = box;
    }
    expect(box.open((await endpointRow(open(), "e1")).secret_sealed as string)).toBe(SECRETS.e1);
    expect((await store.listWebhooks("ws")).map((w) => w.id)).toEqual(["e1", "e2"]);
  });
});
