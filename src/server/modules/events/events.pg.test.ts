import { describe, expect, it } from "vitest";
import { withPgTransaction } from "@/server/db/pg/pool";
import { ManualClock } from "@/server/lib/clock";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { eventsPagePg, PgEventRecorder } from "./events.pg";

const pause = (maxMs: number) =>
  new Promise((r) => setTimeout(r, Math.floor(Math.random() * (maxMs + 1))));

// PostgreSQL only: SQLite takes seq under its one write lock, so commit order is seq order there.
describe("the event stream on PostgreSQL", () => {
  const pool = freshPgDatabase();
  const clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));

  it("gives a reader paging from a cursor every event once, in an order that never goes back, while writers commit in any order", async () => {
    await pool().query("INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'W', 0)");
    const events = new PgEventRecorder(clock);
    const WRITERS = 8;
    const EACH = 25;
    const written: string[] = [];
    let writing = WRITERS;

    // Each writer's transaction does some work before and after its event, for random times, so
    // transactions that started later often commit first.
    async function writer(n: number) {
      for (let i = 0; i < EACH; i++) {
        const id = await withPgTransaction(pool(), async (c) => {
          await pause(3);
          await c.query("SELECT 1");
          const a = await events.write(c, "ws", "member.joined", { n, i });
          await pause(2);
          return a.id;
        });
        written.push(id);
      }
      writing--;
    }

    const seen: string[] = [];
    async function reader() {
      let after: string | undefined;
      // Until every writer is done and a page after that finds nothing more.
      for (let done = false; !done; ) {
        done = writing === 0;
        const page = await eventsPagePg(pool(), "ws", { after, types: [], limit: 7 });
        seen.push(...page.events.map((e) => e.id));
        after = page.next ?? undefined;
        if (page.hasMore) done = false;
      }
    }

    await Promise.all([reader(), ...Array.from({ length: WRITERS }, (_, n) => writer(n))]);

    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...written].sort());
    const { rows } = await pool().query<{ id: string; seq: number }>(
      "SELECT id, seq FROM events WHERE id = ANY($1::text[])",
      [seen],
    );
    const seq = new Map(rows.map((r) => [r.id, r.seq]));
    const order = seen.map((id) => seq.get(id)!);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("pages by type, from an unknown cursor and from the latest, as on SQLite", async () => {
    await pool().query("TRUNCATE workspaces CASCADE");
    await pool().query("INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'W', 0)");
    const events = new PgEventRecorder(clock);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      clock.advance(10);
      ids.push(await events.record(pool(), "ws", i % 2 ? "share.created" : "member.joined", { i }));
    }
    const shares = await eventsPagePg(pool(), "ws", { types: ["share.created"], limit: 2 });
    expect(shares).toMatchObject({ next: ids[3], hasMore: true });
    expect(shares.events.map((e) => e.data)).toEqual([{ i: 1 }, { i: 3 }]);
    const rest = await eventsPagePg(pool(), "ws", { after: ids[3], types: [], limit: 5 });
    expect(rest).toEqual({
      events: [expect.objectContaining({ id: ids[4] }), expect.objectContaining({ id: ids[5] })],
      next: ids[5],
      hasMore: false,
    });
    // An id past every event (pruned, or from another stream) reads as the end.
    expect(await eventsPagePg(pool(), "ws", { after: "~", types: [], limit: 5 })).toEqual({
      events: [],
      next: "~",
      hasMore: false,
    });
    const latest = await eventsPagePg(pool(), "ws", { types: [], limit: 2, latest: true });
    expect(latest.events.map((e) => e.id)).toEqual(ids.slice(4));
    expect(latest.events[0]).toMatchObject({
      type: "member.joined",
      workspaceId: "ws",
      createdAt: new Date(clock.now() - 10).toISOString(),
    });
  });
});
