import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveRows } from "@/server/db/pg/move-rows";
import { createPgPool, type PgPool } from "@/server/db/pg/pool";
import type { Config } from "@/server/env";
import { ApiError } from "@/server/lib/api-error";
import { ManualClock } from "@/server/lib/clock";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { createPgDatabase } from "@/server/testing/pg-database";
import { PgFilesStore } from "./files-store.pg";
import { seedSqlite, T0, WS } from "./files-store.seed";

const RACES = 20;

// PostgreSQL only: SQLite's BEGIN IMMEDIATE already runs one writer at a time.
describe("units on PostgreSQL from two processes", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let other: PgPool;
  let config: Config;
  beforeAll(async () => {
    db = await createPgDatabase();
    other = createPgPool(db.url);
    const source = seedSqlite();
    config = source.config;
    source.files.createFolder(WS, "race");
    for (let i = 0; i < 20; i++) {
      source.files.createFolder(WS, `race/a${i}`);
      source.files.createFolder(WS, `race/b${i}`);
    }
    for (let i = 0; i < RACES; i++) {
      await source.files.writeFile(WS, `back/f${i}`, `f${i}`);
      source.files.remove(WS, [`back/f${i}`], false);
      await source.files.writeFile(WS, `both/f${i}`, `f${i}`);
      source.files.remove(WS, [`both/f${i}`], false);
    }
    await moveRows(source.db, db.pool);
    source.close();
  });
  afterAll(async () => {
    await other.end();
    await db.drop();
  });

  const stores = () => {
    const clock = new ManualClock(T0);
    return [db.pool, other].map(
      (p) => new PgFilesStore(p, clock, new PgEventRecorder(clock), config),
    );
  };

  it("lets one of two renames to the same name win and refuses the other with conflict, under the workspace's lock", async () => {
    const [a, b] = stores();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        Promise.allSettled([
          a!.rename(WS, `race/a${i}`, `t${i}`),
          b!.rename(WS, `race/b${i}`, `t${i}`),
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
    const page = await a!.listPage(WS, {
      path: "race",
      skip: 0,
      count: 100,
      sort: "name",
      order: "asc",
    });
    expect(page.total).toBe(40);
  });

  it("restores a trash item and creates a folder at its path at once: one takes the name, the other answers as it would after it", async () => {
    const [a, b] = stores();
    const items = await db.pool.query<{ id: string; path: string }>(
      "SELECT id, path FROM trash_items WHERE path LIKE 'back/%'",
    );
    expect(items.rows).toHaveLength(RACES);
    const outcomes = await Promise.all(
      items.rows.map(async ({ id, path }) => {
        const [restored, created] = await Promise.allSettled([
          a!.restoreTrashItem(WS, id),
          b!.createFolder(WS, path),
        ]);
        return { path, restored, created };
      }),
    );
    for (const { path, restored, created } of outcomes) {
      if (created.status === "fulfilled") {
        // The folder first: the file comes back beside it.
        expect(created.value).toBe(true);
        expect(restored).toEqual({
          status: "fulfilled",
          value: { path: `${path} (restored)`, renamed: true },
        });
      } else {
        // The file first: the folder finds a file in its way.
        expect((created.reason as ApiError).details).toMatchObject({
          issues: [{ code: "file_in_the_way" }],
        });
        expect(restored).toEqual({ status: "fulfilled", value: { path, renamed: false } });
      }
    }
    const { rows } = await db.pool.query(
      "SELECT count(*)::int AS n FROM trash_items WHERE path LIKE 'back/%'",
    );
    expect(rows[0].n).toBe(0);
  });

  it("purges and restores one trash item at once: one of the two does it, the other answers 404", async () => {
    const [a, b] = stores();
    const items = await db.pool.query<{ id: string; path: string }>(
      "SELECT id, path FROM trash_items WHERE path LIKE 'both/%'",
    );
    expect(items.rows).toHaveLength(RACES);
    for (const { id, path } of items.rows) {
      const [purged, restored] = await Promise.allSettled([
        a!.purgeTrashItem(WS, id),
        b!.restoreTrashItem(WS, id),
      ]);
      const lost = [purged, restored].filter((o) => o.status === "rejected");
      expect(lost).toHaveLength(1);
      expect((lost[0]!.reason as ApiError).status).toBe(404);
      const live = await db.pool.query("SELECT 1 FROM entries WHERE path = $1", [path]);
      expect(live.rowCount).toBe(restored.status === "fulfilled" ? 1 : 0);
    }
  });
});
