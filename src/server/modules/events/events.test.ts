import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/database";
import { ManualClock } from "@/server/lib/clock";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { EventRecorder } from "./events.repository";

let clock: ManualClock;
let t: TestApp;
beforeEach(async () => {
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  t = await createTestApp({ clock });
  await t.deps.webhooks.stop();
});
afterEach(() => t.close());

const page = (q = "") => t.call("GET", t.w(`/events${q}`));

describe("GET /events", () => {
  it("pages in order with a cursor, a limit and a type filter", async () => {
    // Bootstrap recorded the first admin's member.joined.
    const first = (await page()).json;
    expect(first.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({ type: "member.joined", workspaceId: t.workspaceId });
    const ids: string[] = [first.events[0].id];
    for (let i = 0; i < 250; i++) {
      clock.advance(10);
      ids.push(
        t.deps.events.record(t.workspaceId, i % 5 === 0 ? "share.created" : "transfer.completed", {
          i,
        }),
      );
    }

    const p1 = (await page()).json;
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
    let next = p1.next;
    for (;;) {
      const p = (await page(`?after=${next}&limit=70`)).json;
      seen.push(...p.events);
      next = p.next;
      if (!p.hasMore) break;
    }
    expect(seen.map((e) => e.id)).toEqual(ids);
    const empty = (await page(`?after=${next}`)).json;
    expect(empty).toEqual({ events: [], next, hasMore: false });

    const shares = (await page("?types=share.created&limit=1000")).json;
    expect(shares.events).toHaveLength(50);
    expect(shares.events.every((e: { type: string }) => e.type === "share.created")).toBe(true);
    const both = (await page("?types=share.created,member.joined&limit=1000")).json;
    expect(both.events).toHaveLength(51);

    const latest = (await page("?latest=1&limit=3")).json;
    expect(latest.events.map((e: { id: string }) => e.id)).toEqual(ids.slice(-3));
    expect(latest).toMatchObject({ next: ids.at(-1), hasMore: false });

    for (const bad of [
      "?limit=0",
      "?limit=1001",
      "?types=nope",
      "?after=NOT-AN-ID",
      "?latest=maybe",
    ]) {
      const res = await page(bad);
      expect(res.status, bad).toBe(400);
      expect(res.json.error.code).toBe("validation_failed");
    }
  });

  it("pages by commit order, so an event committed later with a smaller id is not skipped", async () => {
    const head = (await page()).json.next;
    const late = t.deps.events.record(t.workspaceId, "share.created", {});
    // Another process's id from the same millisecond can sort before ids already read.
    const smaller = `${late.slice(0, 10)}0000000000000000`;
    t.deps.db.prepare("UPDATE events SET id = ? WHERE id = ?").run(smaller, late);
    const p = (await page(`?after=${head}`)).json;
    expect(p.events.map((e: { id: string }) => e.id)).toEqual([smaller]);
  });

  it("sees events another process committed, and keeps 30 days", async () => {
    const other = openDatabase(`${t.dir}/consign.db`);
    try {
      new EventRecorder(other, clock).record(t.workspaceId, "member.removed", {
        member: { id: "m" },
      });
    } finally {
      other.close();
    }
    expect((await page()).json.events.map((e: { type: string }) => e.type)).toEqual([
      "member.joined",
      "member.removed",
    ]);
    clock.advance(30 * 86_400_000 + 1);
    t.deps.events.record(t.workspaceId, "share.created", {});
    expect(t.deps.webhooks.pruneExpired()).toBe(2);
    expect((await page()).json.events.map((e: { type: string }) => e.type)).toEqual([
      "share.created",
    ]);
  });

  it("needs webhooks:manage", async () => {
    expect((await page()).status).toBe(200);
    const res = await t.call("GET", t.w("/events"), { key: t.keyWith(["usage:read"]) });
    expect(res.status).toBe(403);
    expect((await t.call("GET", t.w("/events"), { key: null })).status).toBe(401);
  });
});
