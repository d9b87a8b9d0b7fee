import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RETRY_SCHEDULE_MS } from "@/contract/webhooks";
import { openDatabase } from "@/server/db/database";
import { createDeps } from "@/server/deps";
import { testConfig } from "@/server/env";
import { ManualClock, systemClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
import { EventRecorder } from "@/server/modules/events/events.repository";
import { expectBody } from "@/server/testing/expect-body";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { type Reply, receiverVerifies, startReceiver } from "@/server/testing/test-receiver";
import { type DeliveryRow, enqueueDeliveries } from "./deliveries.repository";
import { webhooksRouter } from "./webhooks.index";

let clock: ManualClock;
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let reply: (path: string) => Reply;

beforeEach(async () => {
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  t = await createTestApp({ clock, config: { webhooksAllowPrivate: true } });
  // The tests drive the schedule themselves with runDue and the manual clock.
  await t.deps.webhooks.stop();
  reply = () => ({ status: 200, body: "ok" });
  receiver = await startReceiver((r) => reply(r.path));
});
afterEach(async () => {
  await receiver.close();
  await t.close();
});

const api = () => t.client(webhooksRouter).workspaces[":workspaceId"].webhooks;
const webhook = (webhookId: string) => ({ param: { ...t.ws, webhookId } });
const delivery = (webhookId: string, deliveryId: string) => ({
  param: { ...t.ws, webhookId, deliveryId },
});

async function createEndpoint(path = "/hook", events = ["*"]) {
  const res = await api().$post({ param: t.ws, json: { url: `${receiver.url}${path}`, events } });
  return expectBody(res, 201);
}
const setStatus = async (id: string, status: "active" | "disabled") =>
  expectBody(await api()[":webhookId"].$patch({ ...webhook(id), json: { status } }), 200);
const detail = async (id: string, deliveryId: string) =>
  expectBody(
    await api()[":webhookId"].deliveries[":deliveryId"].$get(delivery(id, deliveryId)),
    200,
  );
const retry = async (id: string, deliveryId: string) =>
  expectBody(
    await api()[":webhookId"].deliveries[":deliveryId"].retry.$post(delivery(id, deliveryId)),
    200,
  );
/** The members CLI records on a connection of its own, with the webhooks fan-out registered. */
function recordElsewhere(type: string) {
  const other = openDatabase(`${t.dir}/consign.db`);
  const events = new EventRecorder(other, systemClock);
  events.addFanOut(enqueueDeliveries);
  events.record(t.workspaceId, type, {});
  return other;
}

const record = (type = "member.joined") => t.deps.events.record(t.workspaceId, type, { n: 1 });
const deliveries = () =>
  t.deps.db.prepare("SELECT * FROM webhook_deliveries ORDER BY id").all() as DeliveryRow[];
const endpoint = async (id: string) => expectBody(await api()[":webhookId"].$get(webhook(id)), 200);

describe("the retry schedule", () => {
  it.each([
    ["a 500", (): Reply => ({ status: 500, body: "nope" }), "HTTP 500"],
    ["a timeout", (): Reply => ({ status: 200, hang: true }), "Timed out after 100 ms"],
    [
      "a redirect",
      (): Reply => ({ status: 302, headers: { Location: "/elsewhere" } }),
      "Redirect not followed",
    ],
  ])(
    "after %s, attempts at +1 min, +5 min, +30 min, +2 h, +12 h, then failed",
    async (_name, answer, error) => {
      t.deps.webhooks.timeoutMs = 100;
      reply = (path) => (path === "/hook" ? answer() : { status: 200 });
      const ep = await createEndpoint();
      record();
      const start = clock.now();
      expect(await t.deps.webhooks.runDue()).toBe(1);
      let at = start;
      for (const gap of RETRY_SCHEDULE_MS) {
        clock.advance(gap - 1);
        expect(await t.deps.webhooks.runDue()).toBe(0);
        clock.advance(1);
        at += gap;
        expect(await t.deps.webhooks.runDue()).toBe(1);
      }
      clock.advance(7 * 24 * 3_600_000);
      expect(await t.deps.webhooks.runDue()).toBe(0);

      const [d] = deliveries();
      expect(d).toMatchObject({ status: "failed", attempts: 6, next_attempt_at: at });
      const shown = await detail(ep.id, d!.id);
      expect(shown.status).toBe("failed");
      expect(shown.lastError).toContain(error);
      const offsets = shown.attemptLog.map((a) => Date.parse(a.startedAt) - start);
      expect(offsets).toEqual([0, 60_000, 360_000, 2_160_000, 9_360_000, 52_560_000]);
      expect(shown.attemptLog.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(receiver.requests.filter((r) => r.path === "/elsewhere")).toHaveLength(0);
      expect(receiver.requests.map((r) => JSON.parse(r.body).delivery.attempt)).toEqual([
        1, 2, 3, 4, 5, 6,
      ]);
    },
  );

  it("marks a 2xx delivered and a success resets the failure count", async () => {
    let fail = true;
    reply = () => (fail ? { status: 503 } : { status: 204 });
    const ep = await createEndpoint();
    record();
    await t.deps.webhooks.runDue();
    expect((await endpoint(ep.id)).failureCount).toBe(1);
    expect((await endpoint(ep.id)).nextAttemptAt).toBe(
      new Date(clock.now() + 60_000).toISOString(),
    );
    fail = false;
    clock.advance(60_000);
    await t.deps.webhooks.runDue();
    const after = await endpoint(ep.id);
    expect(after).toMatchObject({
      failureCount: 0,
      nextAttemptAt: null,
      lastDeliveryAt: new Date(clock.now()).toISOString(),
    });
    expect(deliveries()[0]).toMatchObject({
      status: "delivered",
      attempts: 2,
      delivered_at: clock.now(),
      last_status_code: 204,
    });
  });
});

describe("the twenty-failure rule", () => {
  it("disables the endpoint after twenty consecutive failures and stops attempting until re-enabled", async () => {
    reply = (path) => (path === "/hook" ? { status: 500 } : { status: 200 });
    const ep = await createEndpoint();
    const other = await createEndpoint("/other");
    t.deps.db
      .prepare("UPDATE webhook_endpoints SET events = ? WHERE id = ?")
      .run(JSON.stringify(["member.joined"]), ep.id);
    for (let i = 0; i < 25; i++) record();
    record("member.removed");
    t.deps.webhooks.timeoutMs = 1000;
    // One claim could take all 25 at once; the cap leaves in flight only what the rule allows.
    await t.deps.webhooks.runDue();
    let state = await endpoint(ep.id);
    expect(state).toMatchObject({ status: "disabled", failureCount: 20 });
    const sent = receiver.requests.filter((r) => r.path === "/hook").length;
    expect(sent).toBe(20);
    // The capped endpoint's rows do not hold up another endpoint's.
    expect((await endpoint(other.id)).failureCount).toBe(0);
    expect(receiver.requests.filter((r) => r.path === "/other")).toHaveLength(26);

    clock.advance(24 * 3_600_000);
    expect(await t.deps.webhooks.runDue()).toBe(0);
    record();
    expect(await t.deps.webhooks.runDue()).toBe(1);
    expect(deliveries().filter((d) => d.endpoint_id === ep.id)).toHaveLength(25);
    expect(receiver.requests.filter((r) => r.path === "/hook")).toHaveLength(sent);
    expect(state.nextAttemptAt).toBeNull();

    reply = () => ({ status: 200 });
    expect(await setStatus(ep.id, "active")).toMatchObject({ status: "active", failureCount: 0 });
    expect(await t.deps.webhooks.runDue()).toBe(25);
    state = await endpoint(ep.id);
    expect(state).toMatchObject({ status: "active", failureCount: 0 });
    expect(deliveries().every((d) => d.status === "delivered")).toBe(true);
  });

  it("caps attempts in flight at the failures an endpoint has left", async () => {
    reply = () => ({ status: 500 });
    const ep = await createEndpoint();
    t.deps.db.prepare("UPDATE webhook_endpoints SET failure_count = 17").run();
    for (let i = 0; i < 10; i++) record();
    expect(await t.deps.webhooks.runDue()).toBe(3);
    expect(receiver.requests).toHaveLength(3);
    expect(await endpoint(ep.id)).toMatchObject({ status: "disabled", failureCount: 20 });
  });

  it("counts exactly twenty when attempts go one at a time", async () => {
    reply = () => ({ status: 500 });
    const ep = await createEndpoint();
    for (let i = 0; i < 21; i++) {
      record();
      await t.deps.webhooks.runDue();
    }
    expect(receiver.requests).toHaveLength(20);
    expect(await endpoint(ep.id)).toMatchObject({ status: "disabled", failureCount: 20 });
    // The 21st event finds no active endpoint, so it has no delivery at all.
    expect(deliveries()).toHaveLength(20);
  });
});

describe("manual retries", () => {
  it("records a failed retry of a pending delivery without moving its schedule", async () => {
    reply = () => ({ status: 500 });
    const ep = await createEndpoint();
    record();
    const start = clock.now();
    await t.deps.webhooks.runDue();
    clock.advance(10_000);
    const res = await retry(ep.id, deliveries()[0]!.id);
    expect(res).toMatchObject({
      status: "pending",
      attempts: 2,
      lastStatusCode: 500,
      lastError: "HTTP 500",
      nextAttemptAt: new Date(start + 60_000).toISOString(),
      retried: true,
    });
    expect(res.attemptLog.map((a) => a.manual)).toEqual([false, true]);

    // All five scheduled retries still go, each at its time after the previous scheduled one.
    let at = start;
    for (const gap of RETRY_SCHEDULE_MS) {
      clock.set(at + gap - 1);
      expect(await t.deps.webhooks.runDue()).toBe(0);
      at += gap;
      clock.set(at);
      expect(await t.deps.webhooks.runDue()).toBe(1);
    }
    expect(deliveries()[0]).toMatchObject({ status: "failed", attempts: 7, next_attempt_at: at });
  });

  it("delivers a pending delivery whose retry succeeds", async () => {
    reply = () => ({ status: 500 });
    const ep = await createEndpoint();
    record();
    await t.deps.webhooks.runDue();
    reply = () => ({ status: 200 });
    const res = await retry(ep.id, deliveries()[0]!.id);
    expect(res).toMatchObject({
      status: "delivered",
      attempts: 2,
      deliveredAt: new Date(clock.now()).toISOString(),
    });
    clock.advance(60_000);
    expect(await t.deps.webhooks.runDue()).toBe(0);
  });
});

describe("a signing secret that cannot be opened", () => {
  it("fails each attempt on the schedule, says so at start-up and never makes a new key", async () => {
    const ep = await createEndpoint();
    record();
    t.deps.db.close();
    const keyFile = `${t.dir}/webhook-secrets.key`;
    const key = fs.readFileSync(keyFile);
    fs.rmSync(keyFile);
    const lines: string[] = [];
    const deps = createDeps(testConfig(t.dir, { webhooksAllowPrivate: true }), {
      clock,
      log: createLogger("error", {}, (line) => lines.push(line)),
    });
    try {
      expect(await deps.webhooks.runDue()).toBe(1);
      expect(receiver.requests).toHaveLength(0);
      const row = deps.db.prepare("SELECT * FROM webhook_deliveries").get() as DeliveryRow;
      expect(row).toMatchObject({
        status: "pending",
        attempts: 1,
        last_status_code: null,
        next_attempt_at: clock.now() + 60_000,
        lease_owner: null,
      });
      expect(row.last_error).toMatch(/^Signing failed: .*webhook-secrets\.key is missing/);
      expect(() => deps.webhooks.secrets.seal("whsec_new")).toThrow(/is missing/);
      expect(fs.existsSync(keyFile)).toBe(false);

      deps.webhooks.start();
      await deps.webhooks.stop();
      expect(lines.map((l) => JSON.parse(l))).toContainEqual(
        expect.objectContaining({
          level: "error",
          msg: expect.stringContaining("cannot be opened"),
        }),
      );

      // Restored, the file signs the next scheduled attempt; no restart is needed.
      fs.writeFileSync(keyFile, key);
      clock.advance(60_000);
      expect(await deps.webhooks.runDue()).toBe(1);
      const [req] = receiver.requests;
      expect(
        receiverVerifies(
          req!.headers["service-signature"] as string,
          req!.body,
          ep.secret,
          Math.floor(clock.now() / 1000),
        ),
      ).toBe(true);
      expect(JSON.parse(req!.body).delivery.attempt).toBe(2);
    } finally {
      deps.db.close();
    }
  });
});

describe("durability", () => {
  it("keeps the schedule across a restart and after a dead worker's lease expires", async () => {
    reply = () => ({ status: 500 });
    await createEndpoint();
    record();
    await t.deps.webhooks.runDue();
    t.deps.db.close();

    const deps = createDeps(testConfig(t.dir, { webhooksAllowPrivate: true }), { clock });
    try {
      expect(await deps.webhooks.runDue()).toBe(0);
      clock.advance(60_000);
      // A worker that died mid-attempt: its lease holds the row until it expires.
      deps.db
        .prepare("UPDATE webhook_deliveries SET lease_owner = 'dead', lease_expires_at = ?")
        .run(clock.now() + 60_000);
      expect(await deps.webhooks.runDue()).toBe(0);
      clock.advance(60_000);
      expect(await deps.webhooks.runDue()).toBe(1);
      expect(await deps.webhooks.runDue()).toBe(0);
      const row = deps.db
        .prepare("SELECT status, attempts, lease_owner FROM webhook_deliveries")
        .get();
      expect(row).toEqual({ status: "pending", attempts: 2, lease_owner: null });
      expect(receiver.requests.map((r) => JSON.parse(r.body).delivery.attempt)).toEqual([1, 2]);
    } finally {
      deps.db.close();
    }
  });
});

describe("signing", () => {
  it("signs so an independent receiver verifies, and that receiver rejects a stale t or a changed body", async () => {
    const ep = await createEndpoint();
    const eventId = t.deps.events.record(t.workspaceId, "member.joined", { member: { id: "m1" } });
    await t.deps.webhooks.runDue();
    const [req] = receiver.requests;
    const now = Math.floor(clock.now() / 1000);
    expect(
      receiverVerifies(req!.headers["service-signature"] as string, req!.body, ep.secret, now),
    ).toBe(true);
    expect(
      receiverVerifies(
        req!.headers["service-signature"] as string,
        req!.body,
        ep.secret,
        now + 301,
      ),
    ).toBe(false);
    expect(
      receiverVerifies(
        req!.headers["service-signature"] as string,
        `${req!.body} `,
        ep.secret,
        now,
      ),
    ).toBe(false);

    const body = JSON.parse(req!.body);
    const [d] = deliveries();
    expect(body).toEqual({
      id: eventId,
      type: "member.joined",
      createdAt: new Date(clock.now()).toISOString(),
      workspaceId: t.workspaceId,
      data: { member: { id: "m1" } },
      delivery: { id: d!.id, attempt: 1 },
    });
    expect(req!.headers).toMatchObject({
      "content-type": "application/json",
      "service-event": "member.joined",
      "service-delivery": d!.id,
    });
    expect(req!.headers["user-agent"]).toMatch(/^Consign-Webhooks\//);
  });

  it("signs with the new secret after rotation", async () => {
    const ep = await createEndpoint();
    const rotated = await expectBody(
      await api()[":webhookId"]["rotate-secret"].$post(webhook(ep.id)),
      201,
    );
    record();
    await t.deps.webhooks.runDue();
    const [req] = receiver.requests;
    const now = Math.floor(clock.now() / 1000);
    expect(
      receiverVerifies(req!.headers["service-signature"] as string, req!.body, rotated.secret, now),
    ).toBe(true);
    expect(
      receiverVerifies(req!.headers["service-signature"] as string, req!.body, ep.secret, now),
    ).toBe(false);
  });
});

describe("events and deliveries are written with the change", () => {
  it("a change that rolls back emits nothing", async () => {
    await createEndpoint();
    const before = t.deps.db.prepare("SELECT count(*) FROM events").pluck().get();
    expect(() =>
      t.deps.db.transaction(() => {
        t.deps.db.prepare("UPDATE workspaces SET name = 'changed'").run();
        record();
        throw new Error("the change failed");
      })(),
    ).toThrow("the change failed");
    expect(t.deps.db.prepare("SELECT count(*) FROM events").pluck().get()).toBe(before);
    expect(deliveries()).toHaveLength(0);
    expect(await t.deps.webhooks.runDue()).toBe(0);
    expect(receiver.requests).toHaveLength(0);
  });

  it("creates one delivery per matching active endpoint", async () => {
    await createEndpoint("/a", ["member.joined"]);
    await createEndpoint("/b", ["*"]);
    await createEndpoint("/c", ["share.created"]);
    const off = await createEndpoint("/d", ["*"]);
    await setStatus(off.id, "disabled");
    record("member.joined");
    await t.deps.webhooks.runDue();
    expect(receiver.requests.map((r) => r.path).sort()).toEqual(["/a", "/b"]);
  });
});

describe("the running dispatcher", () => {
  it("delivers at once when woken in-process, and picks up events written by another process", async () => {
    await t.close();
    t = await createTestApp({ clock: systemClock, config: { webhooksAllowPrivate: true } });
    await createEndpoint();
    const started = Date.now();
    record();
    await expect.poll(() => receiver.requests.length, { timeout: 2000, interval: 5 }).toBe(1);
    expect(Date.now() - started).toBeLessThan(400);

    // The members CLI writes on its own connection; only the poll can notice it.
    const other = recordElsewhere("member.removed");
    try {
      await expect.poll(() => receiver.requests.length, { timeout: 3000, interval: 20 }).toBe(2);
    } finally {
      other.close();
    }
    expect(JSON.parse(receiver.requests[1]!.body).type).toBe("member.removed");
    expect(fs.existsSync(`${t.dir}/webhook-secrets.key`)).toBe(true);
  });

  it("keeps running while another process holds the write lock, then delivers", async () => {
    await t.close();
    t = await createTestApp({ clock: systemClock, config: { webhooksAllowPrivate: true } });
    await createEndpoint();
    t.deps.db.pragma("busy_timeout = 0");
    // The event is committed, then a long write (the seed CLI's) keeps the lock.
    const other = recordElsewhere("member.removed");
    try {
      other.exec("BEGIN IMMEDIATE");
      await new Promise((r) => setTimeout(r, 1200));
      expect(receiver.requests).toHaveLength(0);
      other.exec("COMMIT");
      await expect.poll(() => receiver.requests.length, { timeout: 3000, interval: 20 }).toBe(1);
    } finally {
      other.close();
    }
  });
});
