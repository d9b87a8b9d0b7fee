import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "@/server/db/database";
import { migratePg } from "@/server/db/pg/migrate";
import { moveBlobs } from "@/server/db/pg/move-blobs";
import { moveRows } from "@/server/db/pg/move-rows";
import { createPgPool } from "@/server/db/pg/pool";
import { loadConfig } from "@/server/env";
import { fail, table } from "./cli-support";

const usage = `Usage: DATABASE_URL=postgres://… BLOB_STORE=s3 S3_BUCKET=… npm run move [-- --concurrency 4]
  Moves the embedded install in DATA_DIR to the scale-out profile; stop the service first.
  Blobs (with BLOB_STORE=s3): every file's bytes the rows reference go to the bucket of the S3_*
  settings, each hashed on the way and checked against its name and the rows' size; those the
  bucket already holds are skipped, so a run that stopped is finished by running it again.
  Rows (with DATABASE_URL): after the blobs, copied into the empty PostgreSQL database in one
  transaction that compares every table's row count and SHA-256 before it commits.
  Any difference names what differs and leaves PostgreSQL empty.`;

const { values } = parseArgs({
  options: {
    help: { type: "boolean", default: false },
    concurrency: { type: "string", default: "4" },
  },
});
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
  fail(`--concurrency takes 1 to 64\n${usage}`);
const config = loadConfig();
const s3 = config.blobStore.kind === "s3" ? config.blobStore.s3 : null;
if (!config.databaseUrl && !s3) fail(usage);
const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
const db = openDatabase(path.join(config.dataDir, "consign.db"));
const pool = config.databaseUrl ? createPgPool(config.databaseUrl) : null;
try {
  // Blobs first: the rows' commit is the last step, so PostgreSQL never references a blob the
  // bucket lacks, and a failed blob leaves it untouched (docs/scale-out.md, Moving an install).
  if (s3) {
    const started = performance.now();
    const report = await moveBlobs(db, config.dataDir, s3, {
      concurrency,
      onProgress: (p) =>
        process.stderr.write(
          `  objects: ${p.done}/${p.objects}, ${mib(p.bytesDone)} of ${mib(p.bytes)}\n`,
        ),
    });
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `In s3://${s3.bucket}: ${report.blobs} blobs and ${report.renditions} renditions (${mib(report.bytes)}); uploaded ${report.uploaded} (${mib(report.uploadedBytes)}, ${mib(report.uploadedBytes / seconds)}/s), skipped ${report.skipped} already there, 0 mismatches; ${report.unreferenced} unreferenced file(s) on disk left behind.\n`,
    );
  } else {
    process.stdout.write("BLOB_STORE is disk: the blobs stay in DATA_DIR/blobs.\n");
  }
  if (pool) {
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
  }
} catch (err) {
  fail(`The move stopped and PostgreSQL was left as it was: ${(err as Error).message}`);
} finally {
  db.close();
  await pool?.end();
}
