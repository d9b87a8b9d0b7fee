import { afterAll, beforeAll } from "vitest";
import { moveRows } from "@/server/db/pg/move-rows";
import { ApiError } from "@/server/lib/api-error";
import { ManualClock } from "@/server/lib/clock";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { type FilesStore, SqliteFilesStore } from "./files-store";
import { PgFilesStore } from "./files-store.pg";
import { seedSqlite, T0 } from "./files-store.seed";

/* The two engines the files store's contract suites (files-store*.test.ts) run on. */

/** One engine's store over the seeded tree, the events its units recorded, and its rows. */
export interface Engine {
  store: FilesStore;
  events(): Promise<{ type: string; data: Record<string, unknown> }[]>;
  rows<T = Record<string, unknown>>(sql: string): Promise<T[]>;
}

/** More rows on the seeded SQLite database, written through its FilesService at T0. */
export type SeedMore = (seeded: ReturnType<typeof seedSqlite>) => Promise<void> | void;

/** The units run at this time; the seed's rows were written at T0. */
const NOW = T0 + 60_000;

const EVENTS = "SELECT type, data FROM events WHERE workspace_id = 'ws' ORDER BY seq";
const parsed = (rows: { type: string; data: string }[]) =>
  rows.map((r) => ({ type: r.type, data: JSON.parse(r.data) }));

export function sqliteEngine(more: SeedMore = () => {}): () => Engine {
  let seeded: ReturnType<typeof seedSqlite>;
  beforeAll(async () => {
    const clock = new ManualClock(T0);
    seeded = seedSqlite(clock);
    await more(seeded);
    clock.set(NOW);
  });
  afterAll(() => seeded.close());
  return () => ({
    store: new SqliteFilesStore(seeded.files),
    events: async () => parsed(seeded.db.prepare(EVENTS).all() as never),
    rows: async <T>(sql: string) => seeded.db.prepare(sql).all() as T[],
  });
}

/**
 * The same rows, moved from an identically seeded SQLite database (ids included), in a database
 * whose default collation is a language's (en-US), as on most installed servers: anything not
 * held to COLLATE "C" would fold, compare or sort differently from SQLite there.
 */
export function postgresEngine(more: SeedMore = () => {}): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  let store: PgFilesStore;
  beforeAll(async () => {
    const source = seedSqlite();
    await more(source);
    await moveRows(source.db, pool());
    source.close();
    const clock = new ManualClock(NOW);
    store = new PgFilesStore(pool(), clock, new PgEventRecorder(clock), source.config);
  });
  return () => ({
    store,
    events: async () => parsed((await pool().query(EVENTS)).rows),
    rows: async <T>(sql: string) => (await pool().query(sql)).rows as T[],
  });
}

/** The refusal a call ends in; anything else fails the test. */
export const caught = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
};
