import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "@/server/db/database";
import { migratePg } from "@/server/db/pg/migrate";
import { moveRows } from "@/server/db/pg/move-rows";
import { createPgPool } from "@/server/db/pg/pool";
import { loadConfig } from "@/server/env";
import { fail, table } from "./cli-support";

const usage = `Usage: DATABASE_URL=postgres://… npm run move
  Copies the embedded install in DATA_DIR (its SQLite database) into the empty PostgreSQL
  database of DATABASE_URL, migrating it first, in one transaction: every table's row count and
  the SHA-256 of its rows are compared before it commits, and a difference leaves the target
  empty. Stop the service first: rows written during the move would not be copied.`;

const { values } = parseArgs({ options: { help: { type: "boolean", default: false } } });
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const config = loadConfig();
if (!config.databaseUrl) fail(usage);
const db = openDatabase(path.join(config.dataDir, "consign.db"));
const pool = createPgPool(config.databaseUrl);
try {
  await migratePg(pool);
  const started = performance.now();
  const report = await moveRows(db, pool, {
    onRows: (t, n) => process.stderr.write(`  ${t}: +${n}\n`),
  });
  process.stdout.write(
    `${table(report.map((r) => ({ table: r.table, rows: r.rows, sha256: r.sha256 })))}\n`,
  );
  const rows = report.reduce((n, r) => n + r.rows, 0);
  process.stdout.write(
    `Moved ${rows.toLocaleString("en")} rows in ${report.length} tables in ${Math.round(performance.now() - started)} ms; every count and SHA-256 matches.\n`,
  );
} catch (err) {
  fail(`The move stopped and PostgreSQL was left as it was: ${(err as Error).message}`);
} finally {
  db.close();
  await pool.end();
}
