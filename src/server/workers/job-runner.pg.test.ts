import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgPool, type PgPool } from "@/server/db/pg/pool";
import { ManualClock, systemClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
import { createPgDatabase } from "@/server/testing/pg-database";
import { JobRunner } from "./job-runner";
import { PgJobQueue } from "./jobs.pg";

const root = path.resolve(import.meta.dirname, "../../..");
const log = createLogger("silent");
let db: Awaited<ReturnType<typeof createPgDatabase>>;
const pools: PgPool[] = [];
const children: ChildProcess[] = [];
beforeAll(async () => {
  db = await createPgDatabase();
  await db.pool.query("CREATE TABLE job_effects (job_id TEXT NOT NULL, pid INTEGER NOT NULL)");
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await Promise.all(pools.map((p) => p.end()));
  await db.drop();
});

/** A pool of its own: what one more service process would hold. */
function processPool() {
  const pool = createPgPool(db.url, { max: 4 });
  pools.push(pool);
  return pool;
}

const count = async (sql: string) => (await db.pool.query(sql)).rows[0].n as number;

/** Runs every job once: the effect row is written by whichever run holds the job. */
function worker(pool: PgPool, clock = systemClock) {
  const runner = new JobRunner(new PgJobQueue(pool), clock, log, { concurrency: 4, pollMs: 10 });
  runner.register("work", {
    run: async (_payload, job) => {
      await pool.query("INSERT INTO job_effects (job_id, pid) VALUES ($1, $2)", [job.id, 0]);
    },
  });
  return runner;
}

describe("the job queue on PostgreSQL only (several processes)", () => {
  it("two runners on two pools claiming the same 200 jobs at once run each exactly once", async () => {
    await db.pool.query("TRUNCATE jobs, job_effects");
    const one = worker(processPool());
    const two = worker(processPool());
    for (let n = 0; n < 200; n++) await one.add("work", { n });
    one.start();
    two.start();
    await expect
      .poll(() => count("SELECT count(*) AS n FROM jobs WHERE status = 'done'"), {
        timeout: 20_000,
      })
      .toBe(200);
    await Promise.all([one.stop(), two.stop()]);
    expect(await count("SELECT count(*) AS n FROM job_effects")).toBe(200);
    expect(await count("SELECT count(DISTINCT job_id) AS n FROM job_effects")).toBe(200);
    expect(await count("SELECT count(*) AS n FROM jobs WHERE attempts <> 1")).toBe(0);
  });

  it("a worker process killed with SIGKILL mid-job has its leases taken over once they expire, each job done once", async () => {
    await db.pool.query("TRUNCATE jobs, job_effects");
    const t = Date.now();
    const queue = worker(db.pool);
    // Oldest first: the child (two slots) runs ten, then hangs in two; eight are left.
    for (let n = 0; n < 10; n++) await queue.add("work", { n }, { runAt: t - 1000 });
    for (const n of [10, 11]) await queue.add("work", { n, hang: true }, { runAt: t - 500 });
    for (let n = 12; n < 20; n++) await queue.add("work", { n }, { runAt: t });
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "src/server/testing/pg-job-worker.ts", db.url, "2"],
      { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(child);
    const owner = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.once("exit", (code) => reject(new Error(`worker exited with ${code}: ${out}`)));
      child.stdout!.on("data", (d) => {
        out += String(d);
        const found = /worker (\S+)/.exec(out)?.[1];
        if (found) resolve(found);
      });
    });
    const heldByChild = `SELECT count(*) AS n FROM jobs WHERE status = 'running' AND lease_owner = '${owner}'`;
    const doneAndHeld = async () => [
      await count("SELECT count(*) AS n FROM jobs WHERE status = 'done'"),
      await count(heldByChild),
    ];
    await expect.poll(doneAndHeld, { timeout: 20_000 }).toEqual([10, 2]);
    expect(await count("SELECT count(*) AS n FROM job_effects")).toBe(10);
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });

    // Before the dead process's leases expire, the next runner takes only the unleased jobs.
    const clock = new ManualClock(Date.now());
    const next = worker(db.pool, clock);
    expect(await next.runDue()).toBe(8);
    expect(await count(heldByChild)).toBe(2);
    clock.advance(60_000);
    expect(await next.runDue()).toBe(2);
    expect(await count("SELECT count(*) AS n FROM jobs WHERE status = 'done'")).toBe(20);
    expect(await count("SELECT count(*) AS n FROM job_effects")).toBe(20);
    expect(await count("SELECT count(DISTINCT job_id) AS n FROM job_effects")).toBe(20);
    expect(await count("SELECT count(*) AS n FROM jobs WHERE attempts = 2")).toBe(2);
  });
});
