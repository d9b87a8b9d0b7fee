import { describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/database";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { migratePg } from "./migrate";
import { pgMigrations, pgOnlyTables } from "./migrations";
import { lockWorkspace, withPgTransaction } from "./pool";

// PostgreSQL only: the schema and the helpers every PostgreSQL repository stands on.
describe("PostgreSQL schema", () => {
  const pool = freshPgDatabase();

  it("has every SQLite table with the same columns, so a row moves between engines as it is", async () => {
    const sqlite = openDatabase(":memory:");
    const tables = sqlite
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'entries_fts%' AND name NOT LIKE 'sqlite_%'`,
      )
      .pluck()
      .all() as string[];
    const columns = (t: string) =>
      (sqlite.prepare(`PRAGMA table_info("${t}")`).all() as { name: string }[])
        .map((c) => c.name)
        .sort();
    const { rows } = await pool().query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const pgColumns = new Map<string, string[]>();
    for (const r of rows)
      pgColumns.set(r.table_name, [...(pgColumns.get(r.table_name) ?? []), r.column_name]);
    for (const t of tables) expect([t, (pgColumns.get(t) ?? []).sort()]).toEqual([t, columns(t)]);
    expect([...pgColumns.keys()].sort()).toEqual([...tables, ...pgOnlyTables].sort());
    sqlite.close();
  });

  it("orders text byte by byte, as SQLite does (keyset pages and prefix ranges rely on it)", async () => {
    const names = ["b", "B", "a/", "a", "a-b", "á", "a0", "_x", "Z"];
    const { rows } = await pool().query<{ path: string }>(
      'SELECT path FROM unnest($1::text[]) AS t(path) ORDER BY path COLLATE "C"',
      [names],
    );
    const sqlite = openDatabase(":memory:");
    const expected = sqlite
      .prepare("SELECT value FROM json_each(?) ORDER BY value")
      .pluck()
      .all(JSON.stringify(names));
    expect(rows.map((r) => r.path)).toEqual(expected);
    // The columns themselves compare in "C", so a plain ORDER BY matches too.
    const { rows: coll } = await pool().query<{ collation_name: string | null }>(
      `SELECT DISTINCT collation_name FROM information_schema.columns
       WHERE table_schema = 'public' AND data_type = 'text'`,
    );
    expect(coll.map((r) => r.collation_name)).toEqual(["C"]);
    sqlite.close();
  });

  it("applies each migration once when processes start together", async () => {
    await Promise.all([migratePg(pool()), migratePg(pool()), migratePg(pool())]);
    const { rows } = await pool().query("SELECT version FROM schema_migrations");
    expect(rows.length).toBe(pgMigrations.length);
  });

  it("serialises two units on one workspace with lockWorkspace", async () => {
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((r) => {
      releaseFirst = r;
    });
    let firstLocked!: () => void;
    const locked = new Promise<void>((r) => {
      firstLocked = r;
    });
    const first = withPgTransaction(pool(), async (c) => {
      await lockWorkspace(c, "w1");
      firstLocked();
      await firstHolds;
      order.push("first");
    });
    await locked;
    const second = withPgTransaction(pool(), async (c) => {
      await lockWorkspace(c, "w1");
      order.push("second");
    });
    // Another workspace is not held up by w1's lock.
    await withPgTransaction(pool(), async (c) => {
      await lockWorkspace(c, "w2");
      order.push("other");
    });
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(["other", "first", "second"]);
  });

  it("rolls a unit back whole when it throws", async () => {
    await expect(
      withPgTransaction(pool(), async (c) => {
        await c.query("INSERT INTO workspaces (id, name, created_at) VALUES ('w9', 'W', 1)");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const { rows } = await pool().query("SELECT id FROM workspaces WHERE id = 'w9'");
    expect(rows).toEqual([]);
  });
});
