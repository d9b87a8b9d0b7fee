/**
 * npm run bench:scale (the job queue's part): claims per second of one against two worker
 * processes on one PostgreSQL queue, each process its own pool and runner (8 jobs at a time),
 * with jobs that only record their run; then the embedded SQLite runner on the same work in this
 * process. Every run is counted in a table: lost = jobs never run, duplicated = extra runs.
 * PostgreSQL is a real server started here (fsync off, as in the tests), beside the workers on
 * this machine's cores.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../src/server/db/database";
import { migratePg } from "../src/server/db/pg/migrate";
import { createPgPool, type PgPool } from "../src/server/db/pg/pool";
import { systemClock } from "../src/server/lib/clock";
import { createLogger } from "../src/server/lib/logger";
import { createDatabase, startPostgres } from "../src/server/testing/postgres-server";
import { JobRunner } from "../src/server/workers/job-runner";
import { figureLine } from "./stats";

const JOBS = 3000;
const CONCURRENCY = 8;
const root = path.resolve(import.meta.dirname, "..");
const line = figureLine(44);

interface Outcome {
  seconds: number;
  lost: number;
  duplicated: number;
}

async function waitFor(check: () => Promise<boolean> | boolean) {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
}

function startWorker(url: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/server/testing/pg-job-worker.ts", url, String(CONCURRENCY)],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
    child.stdout!.on("data", (d) => String(d).includes("worker ") && resolve(child));
  });
}

async function onPostgres(serverUrl: string, processes: number): Promise<Outcome> {
  const url = await createDatabase(serverUrl, `bench_queue_${processes}`);
  const pool: PgPool = createPgPool(url);
  try {
    await migratePg(pool);
    await pool.query("CREATE TABLE job_effects (job_id TEXT NOT NULL, pid INTEGER NOT NULL)");
    const workers = await Promise.all(Array.from({ length: processes }, () => startWorker(url)));
    const started = performance.now();
    // One statement, so every worker finds the whole backlog on its next poll.
    await pool.query(
      `INSERT INTO jobs (id, kind, payload, status, attempts, max_attempts, run_at, created_at, updated_at)
       SELECT 'job-' || lpad(n::text, 6, '0'), 'work', '{}', 'queued', 0, 5, $1, $1, $1
       FROM generate_series(1, $2) AS n`,
      [Date.now(), JOBS],
    );
    const done = async () =>
      (await pool.query("SELECT count(*) AS n FROM jobs WHERE status = 'done'")).rows[0].n;
    await waitFor(async () => (await done()) === JOBS);
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            w.removeAllListeners("exit");
            w.once("exit", () => resolve());
            w.kill("SIGTERM");
          }),
      ),
    );
    const { runs, once } = (
      await pool.query("SELECT count(*) AS runs, count(DISTINCT job_id) AS once FROM job_effects")
    ).rows[0];
    return { seconds, lost: JOBS - once, duplicated: runs - once };
  } finally {
    await pool.end();
  }
}

async function onSqlite(): Promise<Outcome> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-bench-queue-"));
  const db = openDatabase(path.join(dir, "db.sqlite"));
  try {
    db.exec("CREATE TABLE job_effects (job_id TEXT NOT NULL)");
    const effect = db.prepare("INSERT INTO job_effects (job_id) VALUES (?)");
    const runner = new JobRunner(db, systemClock, createLogger("warn"), {
      concurrency: CONCURRENCY,
      pollMs: 50,
    });
    runner.register("work", { run: (_p, job) => void effect.run(job.id) });
    runner.start();
    const started = performance.now();
    db.transaction(() => {
      for (let n = 0; n < JOBS; n++) runner.enqueue("work", {});
    })();
    const done = db.prepare("SELECT count(*) FROM jobs WHERE status = 'done'").pluck();
    await waitFor(() => done.get() === JOBS);
    const seconds = (performance.now() - started) / 1000;
    await runner.stop();
    const { runs, once } = db
      .prepare("SELECT count(*) AS runs, count(DISTINCT job_id) AS once FROM job_effects")
      .get() as { runs: number; once: number };
    return { seconds, lost: JOBS - once, duplicated: runs - once };
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const show = (label: string, o: Outcome) => {
  line(label, `${Math.round(JOBS / o.seconds)} claims/s`, "", null);
  console.log(
    `  ${JOBS} jobs in ${o.seconds.toFixed(2)} s; lost ${o.lost}, duplicated ${o.duplicated}`,
  );
};

console.log(
  `Job queue: ${JOBS} jobs, ${CONCURRENCY} at a time per runner (${os.cpus().length} cores)`,
);
const server = await startPostgres("consign-bench-pg-");
try {
  const one = await onPostgres(server.url, 1);
  show("PostgreSQL, one worker process", one);
  const two = await onPostgres(server.url, 2);
  show("PostgreSQL, two worker processes", two);
  line("two against one", `${(one.seconds / two.seconds).toFixed(2)}×`, "", null);
  show("SQLite, the embedded runner (one process)", await onSqlite());
} finally {
  await server.stop();
}
