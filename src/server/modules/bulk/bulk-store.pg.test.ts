import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveRows } from "@/server/db/pg/move-rows";
import { createPgPool, lockWorkspace, type PgPool } from "@/server/db/pg/pool";
import { ManualClock } from "@/server/lib/clock";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { createPgDatabase } from "@/server/testing/pg-database";
import { batchRunner } from "./bulk-selection";
import { PgBulkStore } from "./bulk-store.pg";
import { NOW, seedSqlite, WS } from "./bulk-store.seed";

// PostgreSQL only: SQLite's BEGIN IMMEDIATE already runs one writer at a time.
describe("bulk batches on PostgreSQL from two processes", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let other: PgPool;
  let stores: [PgBulkStore, PgBulkStore];
  beforeAll(async () => {
    db = await createPgDatabase();
    other = createPgPool(db.url);
    const seeded = await seedSqlite();
    await moveRows(seeded.deps.db, db.pool);
    const clock = new ManualClock(NOW);
    stores = [db.pool, other].map(
      (pool) =>
        new PgBulkStore(pool, clock, new PgEventRecorder(clock), seeded.deps.jobs, {
          trashRetentionDays: 30,
        }),
    ) as [PgBulkStore, PgBulkStore];
    seeded.close();
  });
  afterAll(async () => {
    await other.end();
    await db.drop();
  });
  const liveIn = async (folder: string) =>
    (
      await db.pool.query(
        `SELECT count(*)::int AS n FROM entries WHERE trash_id IS NULL
         AND parent_id = (SELECT id FROM entries WHERE path = $1 AND trash_id IS NULL)`,
        [folder],
      )
    ).rows[0].n as number;

  it("runs nothing of a job cancelled while its batch waited for the workspace's lock", async () => {
    const [store] = stores;
    const job = await store.createBulkJob(WS, { action: "trash", selection: { paths: ["p"] } });
    const holder = await other.connect();
    try {
      await holder.query("BEGIN");
      await lockWorkspace(holder, WS);
      const batch = store.runBatch(batchRunner(4), job.id);
      // The batch has read the job (queued) and waits for the lock the cancel holds.
      for (let waiting = 0; waiting === 0; ) {
        const { rows } = await db.pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        waiting = rows[0].n;
      }
      await holder.query("UPDATE bulk_jobs SET status = 'cancelled' WHERE id = $1", [job.id]);
      await holder.query("COMMIT");
      expect(await batch).toBe(false);
    } finally {
      holder.release();
    }
    expect(await store.getBulkJob(WS, job.id)).toMatchObject({ status: "cancelled", done: 0 });
    expect(await liveIn("p")).toBe(3);
  });

  it("works one job from two processes at once, each child trashed exactly once", async () => {
    const job = await stores[0].createBulkJob(WS, {
      action: "trash",
      selection: { folder: "big", allExcept: [] },
    });
    const drain = async (store: PgBulkStore) => {
      const runner = batchRunner(2);
      while (await store.runBatch(runner, job.id));
    };
    await Promise.all(stores.map(drain));
    expect(await stores[1].getBulkJob(WS, job.id)).toMatchObject({
      status: "completed",
      total: 13,
      done: 13,
      failed: 0,
    });
    expect(await liveIn("big")).toBe(0);
    const { rows } = await db.pool.query(
      "SELECT count(*)::int AS n FROM bulk_job_trash WHERE job_id = $1",
      [job.id],
    );
    expect(rows[0].n).toBe(13);
    expect(
      (await db.pool.query("SELECT count(*)::int AS n FROM trash_items WHERE path LIKE 'big/%'"))
        .rows[0].n,
    ).toBe(13);
  });
});
