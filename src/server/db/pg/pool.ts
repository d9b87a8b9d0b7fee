import pg from "pg";

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

// BIGINT (times in ms, sizes, counts) and COUNT(*) arrive as strings by default; every value the
// schema keeps in them is below 2^53, so numbers are exact, and rows read as SQLite's do.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createPgPool(url: string, opts: { max?: number } = {}): PgPool {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10 });
  // An idle client's error (the server restarting) would otherwise end the process.
  pool.on("error", () => {});
  return pool;
}

export type Isolation = "read committed" | "repeatable read" | "serializable";

/** One unit of work in one transaction: COMMIT when `fn` resolves, ROLLBACK when it throws. */
export async function withPgTransaction<T>(
  pool: PgPool,
  fn: (c: PgClient) => Promise<T>,
  opts: { isolation?: Isolation } = {},
): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query(opts.isolation ? `BEGIN ISOLATION LEVEL ${opts.isolation}` : "BEGIN");
    const result = await fn(c);
    await c.query("COMMIT");
    return result;
  } catch (err) {
    await c.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}

/**
 * Holds the workspace's lock until the transaction ends: the PostgreSQL twin of SQLite's BEGIN
 * IMMEDIATE for a unit that reads and then writes one workspace's rows, which READ COMMITTED
 * alone would let two processes interleave.
 */
export async function lockWorkspace(c: PgClient, workspaceId: string) {
  await c.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
    `workspace:${workspaceId}`,
  ]);
}
