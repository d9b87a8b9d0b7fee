import { type PgMigration, pgMigrations } from "./migrations";
import { type PgPool, withPgTransaction } from "./pool";

/**
 * Brings the schema up to date. Processes started together queue on one advisory lock, and each
 * migration commits with its record, so none is applied twice or half.
 */
export async function migratePg(pool: PgPool, list: readonly PgMigration[] = pgMigrations) {
  await withPgTransaction(pool, async (c) => {
    await c.query("SELECT pg_advisory_xact_lock(hashtextextended('consign:migrations', 0))");
    await c.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version BIGINT PRIMARY KEY, name TEXT COLLATE "C" NOT NULL, applied_at BIGINT NOT NULL)`);
    const done = await c.query<{ version: number }>("SELECT version FROM schema_migrations");
    const applied = new Set(done.rows.map((r) => r.version));
    for (const m of list) {
      if (applied.has(m.version)) continue;
      await c.query(m.sql);
      await c.query(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
        [m.version, m.name, Date.now()],
      );
    }
  });
}
