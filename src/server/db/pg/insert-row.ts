import type { PgClient, PgPool } from "./pool";

/**
 * `INSERT INTO table (…) VALUES ($1, …)` of a row object's own members, in their order, then
 * `suffix` (`RETURNING *`): the PostgreSQL side of a unit inserts the row SQLite's side builds.
 */
export function insertRowPg<R extends object = Record<string, unknown>>(
  c: PgPool | PgClient,
  table: string,
  row: object,
  suffix = "",
) {
  const columns = Object.keys(row);
  return c.query<R & Record<string, unknown>>(
    `INSERT INTO ${table} (${columns.join(", ")})
     VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")}) ${suffix}`,
    Object.values(row),
  );
}
