import { createPgPool } from "@/server/db/pg/pool";
import { systemClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
import { JobRunner } from "@/server/workers/job-runner";
import { PgJobQueue } from "@/server/workers/jobs.pg";

/**
 * A worker process on a PostgreSQL job queue, for the tests that kill one (job-runner.pg.test.ts)
 * and for bench:scale: `tsx pg-job-worker.ts <database url> [concurrency]`. Its "work" jobs record
 * their run in `job_effects` (the caller creates it), so runs are counted in the database; a job
 * whose payload says `hang` never ends, so the process can be killed in the middle of it. It
 * prints `worker <owner>` once it runs, and stops on SIGTERM.
 */
const [url, concurrency = "2"] = process.argv.slice(2);
if (!url) throw new Error("usage: pg-job-worker.ts <database url> [concurrency]");
const pool = createPgPool(url, { max: Number(concurrency) + 2 });
const runner = new JobRunner(new PgJobQueue(pool), systemClock, createLogger("warn"), {
  concurrency: Number(concurrency),
  leaseMs: 60_000,
  pollMs: 50,
});
runner.register("work", {
  run: async (payload, job) => {
    if ((payload as { hang?: boolean }).hang) await new Promise(() => {});
    await pool.query("INSERT INTO job_effects (job_id, pid) VALUES ($1, $2)", [
      job.id,
      process.pid,
    ]);
  },
});
runner.start();
// The runner's poll timer is unref'd (a service's server keeps it alive); here nothing else does.
const alive = setInterval(() => {}, 60_000);
process.stdout.write(`worker ${runner.owner}\n`);
process.once("SIGTERM", () => {
  clearInterval(alive);
  void runner
    .stop()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
