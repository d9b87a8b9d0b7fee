import { describe, expect, it } from "vitest";
import { ManualClock } from "@/server/lib/clock";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { pgFromSqlite } from "@/server/testing/pg-database";
import { PgUpkeepStore } from "./upkeep-store.pg";
import {
  ABANDONED,
  ABANDONED_IDLE,
  DAY,
  EARLY_TRASH,
  EVENTS,
  LATE_TRASH,
  RETENTION_DAYS,
  SHARE_EXPIRES,
  SHARES,
  seedUpkeep,
  T0,
} from "./upkeep-store.seed";

/** Runs `unit` on both stores at once, `rounds` times over, and sums what each reported. */
async function race(
  stores: PgUpkeepStore[],
  rounds: number,
  unit: (s: PgUpkeepStore) => Promise<number>,
) {
  const done = await Promise.all(
    stores.map(async (s) => {
      let n = 0;
      for (let i = 0; i < rounds; i++) n += await unit(s);
      return n;
    }),
  );
  return done.reduce((a, b) => a + b, 0);
}

// PostgreSQL only: SQLite's BEGIN IMMEDIATE already runs one purge at a time.
describe("the periodic workers on PostgreSQL from two processes", () => {
  const pools = pgFromSqlite(seedUpkeep);
  const stores = () => {
    const { pool, other } = pools();
    const clock = new ManualClock(SHARE_EXPIRES + 1);
    return [pool, other].map((p) => new PgUpkeepStore(p, clock, new PgEventRecorder(clock)));
  };

  it("purges each due trash item once: the purges together report each item once", async () => {
    const { pool } = pools();
    const now = T0 + (RETENTION_DAYS + 1) * DAY;
    expect(await race(stores(), 8, (s) => s.purgeExpiredTrash(now, 1))).toBe(EARLY_TRASH);
    const { rows } = await pool.query(
      "SELECT count(*)::int AS items, (SELECT sum(ref_count)::int FROM blobs) AS refs FROM trash_items",
    );
    // keep/a.txt, six shares' holds, and each late file with its version (the next test's).
    expect(rows).toEqual([{ items: LATE_TRASH, refs: 1 + SHARES + 2 * LATE_TRASH }]);
  });

  it("leaves a trash item a person's unit holds for a later run, without waiting for it", async () => {
    const { other } = pools();
    const [store] = stores();
    const now = T0 + 60 * DAY;
    const held = await other.connect();
    try {
      await held.query("BEGIN");
      // What a restore or a purge of the item holds until it commits (trash.pg.ts).
      await held.query("SELECT id FROM trash_items WHERE path = 'late0.txt' FOR UPDATE");
      const waited = new Promise((r) => setTimeout(() => r("waited"), 2000));
      expect(await Promise.race([store!.purgeExpiredTrash(now, 10), waited])).toBe(LATE_TRASH - 1);
      await held.query("COMMIT");
    } finally {
      // Destroyed, not pooled: a failed expectation leaves its transaction open.
      held.release(true);
    }
    expect(await store!.purgeExpiredTrash(now, 10)).toBe(1);
  });

  it("expires each share once: one share.expired each, however many runs race", async () => {
    const { pool } = pools();
    const ids = Array.from({ length: SHARES }, (_, i) => `s${i}`);
    const expired = await race(stores(), 3, async (s) => {
      const won = await Promise.all(ids.map((id) => s.expireShare(id, SHARE_EXPIRES)));
      return won.filter(Boolean).length;
    });
    // s0 was revoked and s1 expired already.
    expect(expired).toBe(SHARES - 2);
    const { rows } = await pool.query(
      `SELECT data::json->>'shareId' AS id, count(*)::int AS n FROM events
       WHERE type = 'share.expired' GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toEqual(ids.slice(2).map((id) => ({ id, n: 1 })));
  });

  it("prunes each old event once: the prunes together report each event once", async () => {
    const { pool } = pools();
    const cutoff = T0 + EVENTS * DAY;
    // The seeded events and the share.expired of the test before.
    const old = EVENTS + SHARES - 2;
    expect(await race(stores(), 8, (s) => s.pruneEvents(cutoff, 2))).toBe(old);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM events");
    expect(rows).toEqual([{ n: 0 }]);
  });

  it("fails the abandoned uploads another process holds on a later run, without waiting for it", async () => {
    const { pool, other } = pools();
    const [store] = stores();
    const held = await other.connect();
    try {
      await held.query("BEGIN");
      // Another process's unit holding ten of the uploads, as a transfer's last report would.
      await held.query(
        "SELECT id FROM portal_uploads WHERE id IN ('u10', 'u11', 'u12', 'u13', 'u14', 'u15', 'u16', 'u17', 'u18', 'u19') FOR UPDATE",
      );
      const waited = new Promise((r) => setTimeout(() => r("waited"), 2000));
      expect(await Promise.race([store!.failAbandonedUploads(ABANDONED_IDLE), waited])).toBe(
        ABANDONED - 10,
      );
      await held.query("COMMIT");
    } finally {
      // Destroyed, not pooled: a failed expectation leaves its transaction open.
      held.release(true);
    }
    expect(await store!.failAbandonedUploads(ABANDONED_IDLE)).toBe(10);
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM portal_uploads WHERE status = 'failed'",
    );
    expect(rows).toEqual([{ n: ABANDONED }]);
  });
});
