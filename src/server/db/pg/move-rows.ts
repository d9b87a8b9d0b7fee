import { createHash } from "node:crypto";
import type { Db } from "@/server/db/database";
import { type PgClient, type PgPool, withPgTransaction } from "./pool";

/** One table's rows as moved: how many, and a digest of their values in key order. */
export interface TableCheck {
  table: string;
  rows: number;
  sha256: string;
}

interface TableShape {
  name: string;
  columns: string[];
  keys: string[];
  /** The column PostgreSQL numbers itself (SQLite's INTEGER PRIMARY KEY), whose sequence follows. */
  identity: string | null;
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Every table the service keeps, in creation order (a table's references are made before it). */
function tablesOf(db: Db): TableShape[] {
  const names = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
       AND name NOT LIKE 'entries_fts%' AND name <> 'schema_migrations' ORDER BY rowid`,
    )
    .pluck()
    .all() as string[];
  return names.map((name) => {
    const info = db.prepare(`PRAGMA table_info(${q(name)})`).all() as {
      name: string;
      type: string;
      pk: number;
    }[];
    const keys = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    if (keys.length === 0) throw new Error(`table ${name} has no primary key to order it by`);
    const identity =
      keys.length === 1 && keys[0]!.type.toUpperCase() === "INTEGER" ? keys[0]!.name : null;
    return { name, columns: info.map((c) => c.name), keys: keys.map((c) => c.name), identity };
  });
}

/** A row's values as one canonical line: the same row reads the same from either engine. */
const canonical = (row: Record<string, unknown>, columns: string[]) =>
  JSON.stringify(
    columns.map((c) => {
      const v = row[c];
      return Buffer.isBuffer(v) || v instanceof Uint8Array ? Buffer.from(v).toString("base64") : v;
    }),
  );

function sqliteCheck(db: Db, t: TableShape): TableCheck {
  const hash = createHash("sha256");
  let rows = 0;
  // Iterated: prepared here, not through the statement cache (db/statements.ts).
  const all = db.prepare(
    `SELECT ${t.columns.map(q).join(", ")} FROM ${q(t.name)} ORDER BY ${t.keys.map(q).join(", ")}`,
  );
  for (const row of all.iterate() as Iterable<Record<string, unknown>>) {
    hash.update(canonical(row, t.columns)).update("\n");
    rows++;
  }
  return { table: t.name, rows, sha256: hash.digest("hex") };
}

async function pgCheck(c: PgClient, t: TableShape, pageRows: number): Promise<TableCheck> {
  const hash = createHash("sha256");
  let rows = 0;
  // Paged by offset: the copy is this transaction's own, and nothing else can write to it.
  for (let offset = 0; ; offset += pageRows) {
    const page = await c.query(
      `SELECT ${t.columns.map(q).join(", ")} FROM ${q(t.name)} ORDER BY ${t.keys.map(q).join(", ")}
       LIMIT ${pageRows} OFFSET ${offset}`,
    );
    for (const row of page.rows) hash.update(canonical(row, t.columns)).update("\n");
    rows += page.rows.length;
    if (page.rows.length < pageRows) break;
  }
  return { table: t.name, rows, sha256: hash.digest("hex") };
}

async function copyTable(c: PgClient, db: Db, t: TableShape, onRows: (n: number) => void) {
  // PostgreSQL takes at most 65,535 parameters a statement.
  const perStatement = Math.max(1, Math.min(1000, Math.floor(60_000 / t.columns.length)));
  const insert = (n: number) =>
    `INSERT INTO ${q(t.name)} (${t.columns.map(q).join(", ")}) VALUES ${Array.from(
      { length: n },
      (_, r) => `(${t.columns.map((_, i) => `$${r * t.columns.length + i + 1}`).join(", ")})`,
    ).join(", ")}`;
  let batch: unknown[] = [];
  let count = 0;
  const flush = async () => {
    if (count === 0) return;
    await c.query(insert(count), batch);
    onRows(count);
    batch = [];
    count = 0;
  };
  const all = db.prepare(
    `SELECT ${t.columns.map(q).join(", ")} FROM ${q(t.name)} ORDER BY ${t.keys.map(q).join(", ")}`,
  );
  for (const row of all.iterate() as Iterable<Record<string, unknown>>) {
    for (const col of t.columns) batch.push(row[col]);
    if (++count === perStatement) await flush();
  }
  await flush();
  if (t.identity) {
    await c.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST(1, (SELECT max(${q(t.identity)}) FROM ${q(t.name)})))`,
      [t.name, t.identity],
    );
  }
}

/**
 * Copies every row of the embedded database into an empty, migrated PostgreSQL database in one
 * transaction, from one SQLite snapshot, then reads both back and compares each table's row count
 * and SHA-256 of its values in key order before it commits. Throws, naming the tables, and
 * leaves the target empty when any differs, or when the target already holds rows.
 */
export async function moveRows(
  db: Db,
  pool: PgPool,
  opts: { onRows?: (table: string, rows: number) => void } = {},
): Promise<TableCheck[]> {
  const tables = tablesOf(db);
  db.exec("BEGIN");
  try {
    const expected = tables.map((t) => sqliteCheck(db, t));
    // Checked inside the transaction, reading its own rows: a copy that differs is rolled back.
    return await withPgTransaction(pool, async (c) => {
      for (const t of tables) {
        const { rows } = await c.query<{ n: number }>(
          `SELECT count(*) AS n FROM (SELECT 1 FROM ${q(t.name)} LIMIT 1) s`,
        );
        if (rows[0]!.n > 0) throw new Error(`the target is not empty: ${t.name} has rows`);
      }
      for (const t of tables) await copyTable(c, db, t, (n) => opts.onRows?.(t.name, n));
      const actual: TableCheck[] = [];
      for (const t of tables) actual.push(await pgCheck(c, t, 5000));
      const differ = actual.filter(
        (a, i) => a.rows !== expected[i]!.rows || a.sha256 !== expected[i]!.sha256,
      );
      if (differ.length > 0) {
        throw new Error(`the copy differs in ${differ.map((d) => d.table).join(", ")}`);
      }
      return actual;
    });
  } finally {
    db.exec("COMMIT");
  }
}
