import { afterAll, beforeAll, inject } from "vitest";
import type { Db } from "@/server/db/database";
import { migratePg } from "@/server/db/pg/migrate";
import { moveRows } from "@/server/db/pg/move-rows";
import { createPgPool, type PgPool } from "@/server/db/pg/pool";
import { newId } from "@/server/lib/ids";
import { createDatabase, dropDatabase } from "./postgres-server";

/**
 * A fresh, migrated database on the run's PostgreSQL server, with its URL and a pool. With
 * `locale`, its default collation is that ICU locale's, as on many installed servers, where
 * only columns declared COLLATE "C" compare bytes.
 */
export async function createPgDatabase(opts: { locale?: string } = {}): Promise<{
  url: string;
  pool: PgPool;
  drop(): Promise<void>;
}> {
  const server = inject("postgres").url;
  const name = `t_${newId()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")}`;
  const url = await createDatabase(server, name, opts);
  const pool = createPgPool(url);
  await migratePg(pool);
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      await dropDatabase(server, name);
    },
  };
}

/** For a test file or describe: one database for its tests, made before and dropped after. */
export function freshPgDatabase(opts: { locale?: string } = {}): () => PgPool {
  let db: Awaited<ReturnType<typeof createPgDatabase>> | null = null;
  beforeAll(async () => {
    db = await createPgDatabase(opts);
  });
  afterAll(async () => {
    await db?.drop();
  });
  return () => {
    if (!db) throw new Error("freshPgDatabase(): the database is made in beforeAll");
    return db.pool;
  };
}

/**
 * For a describe of PostgreSQL-only races: a fresh database holding the rows of a seeded SQLite
 * database (moveRows), with two pools on it, as two processes would have.
 */
export function pgFromSqlite(seed: () => { db: Db; close(): void }) {
  let db: Awaited<ReturnType<typeof createPgDatabase>> | null = null;
  let other: PgPool | null = null;
  beforeAll(async () => {
    db = await createPgDatabase();
    other = createPgPool(db.url);
    const source = seed();
    await moveRows(source.db, db.pool);
    source.close();
  });
  afterAll(async () => {
    await other?.end();
    await db?.drop();
  });
  return () => {
    if (!db || !other) throw new Error("pgFromSqlite(): the database is made in beforeAll");
    return { pool: db.pool, other };
  };
}
