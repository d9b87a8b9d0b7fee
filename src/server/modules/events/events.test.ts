import { describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/database";
import type { ManualClock } from "@/server/lib/clock";
import { expectBody, expectError } from "@/server/testing/expect-body";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { eventsRouter } from "./events.index";
import { EventRecorder } from "./events.repository";

let clock: ManualClock;
let t: TestApp;
testAppEach(async (app, c) => {
  t = app;
  clock = c;
  await t.deps.webhooks.stop();
});

type Query = Parameters<
  ReturnType<typeof t.client<typeof eventsRouter>>["workspaces"][":workspaceId"]["events"]["$get"]
>[0]["query"];
const get = (query: Query = {}, key?: string | null) =>
  t.client(eventsRouter, { key }).workspaces[":workspaceId"].events.$get({ param: t.ws, query });
const page = async (query: Query = {}) => expectBody(await get(query), 200);
const types = async () => (await page()).events.map((e) => e.type);

describe("GET /events", () => {
  it("pages in order with a cursor, a limit and a type filter", async () => {
    // Bootstrap recorded the first admin's member.joined.
    const first = await page();
    expect(first.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({ type: "member.joined", workspaceId: t.workspaceId });
    const ids: string[] = [first.events[0]!.id];
    for (let i = 0; i < 250; i++) {
      clock.advance(10);
      ids.push(
        t.deps.events.record(t.workspaceId, i % 5 === 0 ? "share.created" : "transfer.completed", {
          i,
        }),
      );
    }

    const p1 = await page();
    expect(p1.events).toHaveLength(100);
    expect(p1.hasMore).toBe(true);
    expect(p1.next).toBe(ids[99]);
    expect(p1.events[1]).toEqual({
      id: ids[1],
      type: "share.created",
      createdAt: new Date(Date.parse("2026-06-01T12:00:00Z") + 10).toISOString(),
      workspaceId: t.workspaceId,
      data: { i: 0 },
    });
    const seen = [...p1.events];
    let next = p1.next!;
    for (;;) {
      const p = await page({ after: next, limit: "70" });
      seen.push(...p.events);
      next = p.next!;
      if (!p.hasMore) break;
    }
    expect(seen.map((e) => e.id)).toEqual(ids);
    expect(await page({ after: next })).toEqual({ events: [], next, hasMore: false });

    const shares = await page({ types: "share.created", limit: "1000" });
    expect(shares.events).toHaveLength(50);
    expect(shares.events.every((e) => e.type === "share.created")).toBe(true);
    const both = await page({ types: "share.created,member.joined", limit: "1000" });
    expect(both.events).toHaveLength(51);

    const latest = await page({ latest: "1", limit: "3" });
    expect(latest.events.map((e) => e.id)).toEqual(ids.slice(-3));
    expect(latest).toMatchObject({ next: ids.at(-1), hasMore: false });

    for (const bad of [
      { limit: "0" },
      { limit: "1001" },
      { types: "nope" },
      { after: "NOT-AN-ID" },
      { latest: "maybe" },
    ]) {
      const error = await expectError(await get(bad as never), 400);
      expect(error.code, JSON.stringify(bad)).toBe("validation_failed");
    }
  });

  it("pages by commit order, so an event committed later with a smaller id is not skipped", async () => {
    const head = (await page()).next!;
    const late = t.deps.events.record(t.workspaceId, "share.created", {});
    // Another process's id from the same millisecond can sort before ids already read.
    const smaller = `${late.slice(0, 10)}0000000000000000`;
    t.deps.db.prepare("UPDATE events SET id = ? WHERE id = ?").run(smaller, late);
    expect((await page({ after: head })).events.map((e) => e.id)).toEqual([smaller]);
  });

  it("sees events another process committed", async () => {
    const other = openDatabase(`${t.dir}/consign.db`);
    try {
      new EventRecorder(other, clock).record(t.workspaceId, "member.removed", {
        member: { id: "m" },
      });
    } finally {
      other.close();
    }
    expect(await types()).toEqual(["member.joined", "member.removed"]);
  });

  it("keeps 30 days: the hourly retention job deletes older events with their deliveries", async () => {
    const webhook = t.deps.db.prepare(
      `INSERT INTO webhook_endpoints (id, workspace_id, kind, url, events, secret_sealed, status, created_at)
       VALUES ('ep1', ?, 'webhook', 'https://example.com', '["*"]', 'x', 'active', 0)`,
    );
    webhook.run(t.workspaceId);
    t.deps.events.record(t.workspaceId, "share.created", {});
    const count = (table: string) =>
      t.deps.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    expect(count("webhook_deliveries")).toBe(1);

    // The job runs at start-up and at the top of every hour.
    await t.deps.jobs.runDue();
    expect(await types()).toEqual(["member.joined", "share.created"]);
    clock.advance(30 * 86_400_000 + 1);
    t.deps.events.record(t.workspaceId, "share.revoked", {});
    await t.deps.jobs.runDue();
    expect(await types()).toEqual(["share.revoked"]);
    expect(count("webhook_deliveries")).toBe(1);
    expect(t.deps.db.prepare("SELECT event_type FROM webhook_deliveries").pluck().get()).toBe(
      "share.revoked",
    );
  });

  it("needs webhooks:manage", async () => {
    expect((await get()).status).toBe(200);
    expect((await get({}, t.keyWith(["usage:read"]))).status).toBe(403);
    expect((await get({}, null)).status).toBe(401);
  });
});
