import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/database";
import { ManualClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
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
  it("a recurring job whose slot the database cannot take runs at once, and its next slot is queued on a later poll", async () => {
    const { db, clock, log } = setup();
    // A full disk, for this connection's inserts into jobs.
    db.exec(`CREATE TEMP TRIGGER full BEFORE INSERT ON main.jobs
      BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    const runner = new JobRunner(db, clock, log);
    const runs: number[] = [];
    runner.every("tick", 3_600_000, () => void runs.push(clock.now()));
    expect(runs).toEqual([clock.now()]);
    expect(db.prepare("SELECT count(*) FROM jobs").pluck().get()).toBe(0);
    expect(await runner.runDue()).toBe(0);
    db.exec("DROP TRIGGER temp.full");
    expect(await runner.runDue()).toBe(0);
    clock.advance(3_600_000);
    expect(await runner.runDue()).toBe(1);
    expect(runs).toHaveLength(2);
  });

  it("a kind with a pool of its own runs at most its concurrency at once and leaves the shared slots to the others", async () => {
    const { db, clock, log } = setup();
    const runner = new JobRunner(db, clock, log, { concurrency: 1, pollMs: 5 });
    const held: (() => void)[] = [];
    let longStarted = () => {};
    runner.register("long", {
      concurrency: 1,
      run: () =>
        new Promise<void>((resolve) => {
          held.push(resolve);
          longStarted();
        }),
    });
    let shortsDone = () => {};
    const shorts = new Promise<void>((resolve) => {
      shortsDone = resolve;
    });
    let ran = 0;
    runner.register("short", { run: () => void (++ran === 2 && shortsDone()) });
    runner.enqueue("long", { n: 1 });
    runner.enqueue("long", { n: 2 });
    runner.enqueue("short", { n: 1 });
    runner.enqueue("short", { n: 2 });
    const secondLong = new Promise<void>((resolve) => {
      runner.start();
      longStarted = () => held.length === 2 && resolve();
    });
    // Both short jobs ran on the one shared slot while a long one held its pool.
    await shorts;
    expect(held).toHaveLength(1);
    held[0]!();
    await secondLong;
    held[1]!();
    await runner.stop();
    expect(db.prepare("SELECT count(*) FROM jobs WHERE status = 'done'").pluck().get()).toBe(4);
  });

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

  it("runs a recurring job now and at the start of each later slot, never twice per slot", async () => {
    const { db, clock, log } = setup();
    clock.set(10 * 3_600_000 + 1_000);
    const runs: number[] = [];
    const runner = new JobRunner(db, clock, log);
    runner.every("tick", 3_600_000, () => void runs.push(clock.now()));
    // A restart in the same slot enqueues that slot again: a no-op.
    new JobRunner(db, clock, log).every("tick", 3_600_000, () => {});
    expect(await runner.runDue()).toBe(1);
    clock.advance(3_600_000 - 1_001);
    expect(await runner.runDue()).toBe(0);
    clock.advance(1);
    expect(await runner.runDue()).toBe(1);
    expect(runs).toEqual([10 * 3_600_000 + 1_000, 11 * 3_600_000]);
  });

  it("keeps a recurring job going after a run that fails, without retrying it", async () => {
    const { db, clock, log } = setup();
    let fail = true;
    const runner = new JobRunner(db, clock, log);
    runner.every("tick", 60_000, () => {
      if (fail) throw new Error("boom");
    });
    expect(await runner.runDue()).toBe(1);
    expect(db.prepare("SELECT status FROM jobs ORDER BY status").pluck().all()).toEqual([
      "failed",
      "queued",
    ]);
    fail = false;
    clock.advance(60_000);
    expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
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

  it.each(["succeeds", "fails"])(
    "keeps the outcome of the run that took over an expired lease when the old run %s late",
    async (outcome) => {
      const { db, clock, log } = setup();
      const old = new JobRunner(db, clock, log, { leaseMs: 30_000 });
      const next = new JobRunner(db, clock, log, { leaseMs: 30_000 });
      let settleOld = () => {};
      let settleNext = () => {};
      old.register("work", {
        run: () =>
          new Promise<void>((resolve, reject) => {
            settleOld = () => (outcome === "fails" ? reject(new Error("late")) : resolve());
          }),
      });
      next.register("work", { run: () => new Promise<void>((resolve) => (settleNext = resolve)) });
      old.enqueue("work", {});
      const oldRun = old.runDue(1);
      clock.advance(30_000);
      const nextRun = next.runDue(1);
      await new Promise((r) => setImmediate(r));

      settleOld();
      await oldRun;
      const row = () =>
        db.prepare("SELECT status, lease_owner, attempts, last_error FROM jobs").get();
      expect(row()).toEqual({
        status: "running",
        lease_owner: next.owner,
        attempts: 2,
        last_error: null,
      });
      settleNext();
      await nextRun;
      expect(row()).toMatchObject({ status: "done", lease_owner: null, last_error: null });
    },
  );

  it("waits on stop for a job that ends within the grace period, and records its outcome", async () => {
    const { db, clock, log } = setup();
    const runner = new JobRunner(db, clock, log, { pollMs: 10 });
    runner.register("brief", { run: () => new Promise((r) => setTimeout(r, 100)) });
    runner.enqueue("brief", {});
    runner.start();
    const status = () => db.prepare("SELECT status FROM jobs").pluck().get();
    await expect.poll(status).toBe("running");
    await runner.stop(5_000);
    expect(status()).toBe("done");
  });

  it("stops waiting at the deadline, releases the lease, and drops the late outcome", async () => {
    const { db, clock, log } = setup();
    const runner = new JobRunner(db, clock, log, { pollMs: 10 });
    let finish = () => {};
    runner.register("stuck", { run: () => new Promise<void>((r) => (finish = r)) });
    runner.enqueue("stuck", { n: 1 });
    runner.start();
    const row = () => db.prepare("SELECT status, lease_owner, attempts FROM jobs").get();
    await expect.poll(() => row()).toMatchObject({ status: "running" });
    const started = performance.now();
    await runner.stop(200);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(190);
    expect(waited).toBeLessThan(2_000);
    expect(row()).toEqual({ status: "queued", lease_owner: null, attempts: 0 });

    // The abandoned run ends before the process does: the job stays queued for the next owner.
    finish();
    await new Promise((r) => setTimeout(r, 20));
    expect(row()).toEqual({ status: "queued", lease_owner: null, attempts: 0 });
    const other = new JobRunner(db, clock, log);
    const seen: unknown[] = [];
    other.register("stuck", { run: (p) => void seen.push(p) });
    expect(await other.runDue()).toBe(1);
    expect(seen).toEqual([{ n: 1 }]);
  });

  it("stops renewing the leases it released, so closing the database after stop is safe", async () => {
    const { db, clock } = setup();
    const lines: string[] = [];
    const log = createLogger("warn", {}, (line) => lines.push(line));
    // A heartbeat every 20 ms.
    const runner = new JobRunner(db, clock, log, { pollMs: 10, leaseMs: 60 });
    runner.register("stuck", { run: () => new Promise<void>(() => {}) });
    runner.enqueue("stuck", {});
    runner.start();
    await expect.poll(() => db.prepare("SELECT status FROM jobs").pluck().get()).toBe("running");
    await runner.stop(50);
    db.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(lines.filter((l) => l.includes("heartbeat"))).toEqual([]);
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
