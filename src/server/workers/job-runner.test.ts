import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../db/database";
import { ManualClock } from "../lib/clock";
import { createLogger } from "../lib/logger";
import { JobRunner } from "./job-runner";

const dirs: string[] = [];
function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-jobs-"));
  dirs.push(dir);
  const file = path.join(dir, "db.sqlite");
  const clock = new ManualClock();
  const log = createLogger("silent");
  return { file, clock, log, db: openDatabase(file) };
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("JobRunner", () => {
  it("runs due jobs only, once each", async () => {
    const { db, clock, log } = setup();
    const runner = new JobRunner(db, clock, log);
    const seen: unknown[] = [];
    runner.register("echo", { run: (p) => void seen.push(p) });
    runner.enqueue("echo", { n: 1 });
    runner.enqueue("echo", { n: 2 }, { runAt: clock.now() + 1000 });
    expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
    clock.advance(1000);
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("retries with backoff, then gives up after maxAttempts", async () => {
    const { db, clock, log } = setup();
    const runner = new JobRunner(db, clock, log);
    runner.register("always", {
      run: () => {
        throw new Error("boom");
      },
      maxAttempts: 2,
      backoffMs: () => 500,
    });
    runner.enqueue("always", {});
    expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
    clock.advance(500);
    expect(await runner.runDue()).toBe(1);
    clock.advance(10_000);
    expect(await runner.runDue()).toBe(0);
    const row = db
      .prepare("SELECT status, attempts, last_error FROM jobs WHERE kind = 'always'")
      .get();
    expect(row).toEqual({ status: "failed", attempts: 2, last_error: "boom" });
  });

  it("keeps one pending job per unique key", () => {
    const { db, clock, log } = setup();
    const runner = new JobRunner(db, clock, log);
    runner.register("purge", { run: () => {} });
    expect(runner.enqueue("purge", {}, { uniqueKey: "purge:ws1" })).not.toBeNull();
    expect(runner.enqueue("purge", {}, { uniqueKey: "purge:ws1" })).toBeNull();
  });

  it("picks up a job whose worker died once its lease expires, and survives a reopen", async () => {
    const { db, file, clock, log } = setup();
    const dead = new JobRunner(db, clock, log, { leaseMs: 30_000 });
    let started = 0;
    dead.register("work", { run: () => new Promise(() => void started++) });
    dead.enqueue("work", { id: 7 });
    void dead.runDue(1); // never settles: the process "dies" mid-job
    await new Promise((r) => setImmediate(r));
    expect(started).toBe(1);
    db.close();

    const db2 = openDatabase(file);
    const runner = new JobRunner(db2, clock, log);
    const done: unknown[] = [];
    runner.register("work", { run: (p) => void done.push(p) });
    expect(await runner.runDue()).toBe(0);
    clock.advance(30_000);
    expect(await runner.runDue()).toBe(1);
    expect(done).toEqual([{ id: 7 }]);
    db2.close();
  });

  it("releases its leases on stop so another worker takes the job at once", async () => {
    const { db, clock, log } = setup();
    const runner = new JobRunner(db, clock, log);
    runner.register("later", { run: () => {} });
    db.prepare(
      `INSERT INTO jobs (id, kind, payload, status, attempts, max_attempts, run_at, lease_owner, lease_expires_at, created_at, updated_at)
       VALUES ('j1', 'later', '{}', 'running', 1, 5, 0, ?, ?, 0, 0)`,
    ).run(runner.owner, clock.now() + 60_000);
    await runner.stop();
    const row = db.prepare("SELECT status, lease_owner, attempts FROM jobs WHERE id = 'j1'").get();
    expect(row).toEqual({ status: "queued", lease_owner: null, attempts: 0 });
  });

  it("outlives a database another process keeps locked, and runs the job once it is free", async () => {
    const { db, file, clock, log } = setup();
    db.pragma("busy_timeout = 0");
    const runner = new JobRunner(db, clock, log, { pollMs: 20 });
    const seen: unknown[] = [];
    runner.register("echo", { run: (p) => void seen.push(p) });
    runner.enqueue("echo", { n: 1 });
    // Another connection holds the write lock, as the seed CLI does during a big insert.
    const other = openDatabase(file);
    other.exec("BEGIN IMMEDIATE");
    runner.start();
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([]);
    other.exec("COMMIT");
    other.close();
    await expect.poll(() => seen, { timeout: 2000 }).toEqual([{ n: 1 }]);
    await runner.stop();
  });
});
