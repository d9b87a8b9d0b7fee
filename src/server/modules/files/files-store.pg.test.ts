import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveRows } from "@/server/db/pg/move-rows";
import { createPgPool, type PgPool } from "@/server/db/pg/pool";
import { ApiError } from "@/server/lib/api-error";
import { ManualClock } from "@/server/lib/clock";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { createPgDatabase } from "@/server/testing/pg-database";
import { PgFilesStore } from "./files-store.pg";
import { seedSqlite, T0, WS } from "./files-store.seed";

// PostgreSQL only: SQLite's BEGIN IMMEDIATE already runs one writer at a time.
describe("renames on PostgreSQL from two processes", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let other: PgPool;
  beforeAll(async () => {
    db = await createPgDatabase();
    other = createPgPool(db.url);
    const source = seedSqlite();
    source.files.createFolder(WS, "race");
    for (let i = 0; i < 20; i++) {
      source.files.createFolder(WS, `race/a${i}`);
      source.files.createFolder(WS, `race/b${i}`);
    }
    await moveRows(source.db, db.pool);
    source.close();
  });
  afterAll(async () => {
    await other.end();
    await db.drop();
  });

  it("lets one of two renames to the same name win and refuses the other with conflict, under the workspace's lock", async () => {
    const clock = new ManualClock(T0);
    const stores = [db.pool, other].map(
      (p) => new PgFilesStore(p, clock, new PgEventRecorder(clock)),
    );
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        Promise.allSettled([
          stores[0]!.rename(WS, `race/a${i}`, `t${i}`),
          stores[1]!.rename(WS, `race/b${i}`, `t${i}`),
        ]),
      ),
    );
    for (const pair of outcomes) {
      expect(pair.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const refused = pair.find((o) => o.status === "rejected")!.reason;
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).details).toMatchObject({ issues: [{ code: "conflict" }] });
    }
    const { rows } = await db.pool.query(
      "SELECT count(*)::int AS n FROM events WHERE type = 'file.renamed'",
    );
    expect(rows[0].n).toBe(20);
    const page = await stores[0]!.listPage(WS, {
      path: "race",
      skip: 0,
      count: 100,
      sort: "name",
      order: "asc",
    });
    expect(page.total).toBe(40);
  });
});
