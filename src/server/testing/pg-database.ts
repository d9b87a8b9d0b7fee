import { afterAll, beforeAll, inject } from "vitest";
import { migratePg } from "@/server/db/pg/migrate";
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
