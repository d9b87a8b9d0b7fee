import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/database";
import { ManualClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
import { freshPgDatabase } from "@/server/testing/pg-database";
import type { JobQueue } from "./job-queue";
import { JobRunner } from "./job-runner";
import { PgJobQueue } from "./jobs.pg";
import { SqliteJobQueue } from "./jobs.repository";

/** One engine's queue for one test, with a way to read the jobs table behind it. */
interface EngineHandle {
  queue: JobQueue;
  rows(sql: string): Promise<Record<string, unknown>[]>;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function useSqlite(): () => Promise<EngineHandle> {
  return async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-queue-"));
    dirs.push(dir);
    const db = openDatabase(path.join(dir, "db.sqlite"));
    return { queue: new SqliteJobQueue(db), rows: async (sql) => db.prepare(sql).all() as never };
  };
}

function usePostgres(): () => Promise<EngineHandle> {
  const pool = freshPgDatabase();
  return async () => {
    await pool().query("TRUNCATE jobs");
    return { queue: new PgJobQueue(pool()), rows: async (sql) => (await pool().query(sql)).rows };
  };
}

const log = createLogger("silent");

describe.each([
  { engine: "SQLite", use: useSqlite },
  { engine: "PostgreSQL", use: usePostgres },
])("the job queue on $engine", ({ use }) => {
  const open = use();

  it("claims up to n due jobs of the given kinds, each leased to the owner once", async () => {
    const { queue, rows } = await open();
    const clock = new ManualClock();
    const runner = new JobRunner(queue, clock, log);
    for (const n of [1, 2, 3]) await runner.add("a", { n });
    await runner.add("b", {});
    await runner.add("a", { n: 4 }, { runAt: clock.now() + 1000 });
    const claim = (limit: number) =>
      queue.claim({ kinds: ["a"], limit, owner: "w1", now: clock.now(), leaseMs: 30_000 });
    const first = await claim(2);
    expect(first).toHaveLength(2);
    expect(first.every((j) => j.kind === "a" && j.attempts === 1)).toBe(true);
    expect(await claim(5)).toHaveLength(1);
    expect(await claim(5)).toEqual([]);
    expect(
      await rows("SELECT kind, status, lease_owner FROM jobs WHERE status = 'running'"),
    ).toEqual(Array(3).fill({ kind: "a", status: "running", lease_owner: "w1" }));
  });

  it("runs due jobs only, once each", async () => {
    const { queue } = await open();
    const clock = new ManualClock();
    const runner = new JobRunner(queue, clock, log);
    const seen: unknown[] = [];
    runner.register("echo", { run: (p) => void seen.push(p) });
    await runner.add("echo", { n: 1 });
    await runner.add("echo", { n: 2 }, { runAt: clock.now() + 1000 });
    expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
    clock.advance(1000);
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("takes over a job whose lease expired, and drops the old run's late outcome", async () => {
    const { queue, rows } = await open();
    const clock = new ManualClock();
    const old = new JobRunner(queue, clock, log, { leaseMs: 30_000 });
    const next = new JobRunner(queue, clock, log, { leaseMs: 30_000 });
    let settleOld = () => {};
    old.register("work", { run: () => new Promise<void>((resolve) => (settleOld = resolve)) });
    const done: unknown[] = [];
    next.register("work", { run: (p) => void done.push(p) });
    await old.add("work", { id: 7 });
    const oldRun = old.runDue(1);
    await expect
      .poll(() => rows("SELECT lease_owner FROM jobs"))
      .toEqual([{ lease_owner: old.owner }]);
    expect(await next.runDue()).toBe(0);
    clock.advance(30_000);
    expect(await next.runDue()).toBe(1);
    expect(done).toEqual([{ id: 7 }]);
    settleOld();
    await oldRun;
    expect(await rows("SELECT status, lease_owner, attempts FROM jobs")).toEqual([
      { status: "done", lease_owner: null, attempts: 2 },
    ]);
  });

  it("keeps one pending job per unique key, and takes the key again once that job is done", async () => {
    const { queue } = await open();
    const runner = new JobRunner(queue, new ManualClock(), log);
    runner.register("purge", { run: () => {} });
    expect(await runner.add("purge", {}, { uniqueKey: "purge:ws1" })).not.toBeNull();
    expect(await runner.add("purge", {}, { uniqueKey: "purge:ws1" })).toBeNull();
    expect(await runner.add("purge", {}, { uniqueKey: "purge:ws2" })).not.toBeNull();
    expect(await runner.runDue()).toBe(2);
    expect(await runner.add("purge", {}, { uniqueKey: "purge:ws1" })).not.toBeNull();
  });

  it("retries with backoff, then fails for good after maxAttempts", async () => {
    const { queue, rows } = await open();
    const clock = new ManualClock();
    const runner = new JobRunner(queue, clock, log);
    runner.register("always", {
      run: () => {
        throw new Error("boom");
      },
      maxAttempts: 2,
      backoffMs: () => 500,
    });
    await runner.add("always", {});
    expect(await runner.runDue()).toBe(1);
    expect(await rows("SELECT status, attempts FROM jobs")).toEqual([
      { status: "queued", attempts: 1 },
    ]);
    clock.advance(499);
    expect(await runner.runDue()).toBe(0);
    clock.advance(1);
    expect(await runner.runDue()).toBe(1);
    clock.advance(10_000);
    expect(await runner.runDue()).toBe(0);
    expect(await rows("SELECT status, attempts, last_error FROM jobs")).toEqual([
      { status: "failed", attempts: 2, last_error: "boom" },
    ]);
  });

  it("releases its leases on stop, uncounting the attempt, so another runner takes the job at once", async () => {
    const { queue, rows } = await open();
    const clock = new ManualClock();
    const runner = new JobRunner(queue, clock, log, { pollMs: 10 });
    runner.register("stuck", { run: () => new Promise<void>(() => {}) });
    await runner.add("stuck", { n: 1 });
    runner.start();
    await expect.poll(() => rows("SELECT status FROM jobs")).toEqual([{ status: "running" }]);
    await runner.stop(0);
    expect(await rows("SELECT status, lease_owner, attempts FROM jobs")).toEqual([
      { status: "queued", lease_owner: null, attempts: 0 },
    ]);
    const other = new JobRunner(queue, clock, log);
    const seen: unknown[] = [];
    other.register("stuck", { run: (p) => void seen.push(p) });
    expect(await other.runDue()).toBe(1);
    expect(seen).toEqual([{ n: 1 }]);
  });

  it("runs a kind with a pool of its own at most its concurrency at once, beside the shared slots", async () => {
    const { queue, rows } = await open();
    const runner = new JobRunner(queue, new ManualClock(), log, { concurrency: 1, pollMs: 5 });
    const held: (() => void)[] = [];
    runner.register("long", {
      concurrency: 2,
      run: () => new Promise<void>((resolve) => held.push(resolve)),
    });
    runner.register("short", { run: () => {} });
    for (const n of [1, 2, 3]) await runner.add("long", { n });
    for (const n of [1, 2, 3]) await runner.add("short", { n });
    runner.start();
    // Every short job ran on the one shared slot while two long ones held their pool.
    await expect
      .poll(() => rows("SELECT count(*) AS n FROM jobs WHERE kind = 'short' AND status = 'done'"))
      .toEqual([{ n: 3 }]);
    await expect.poll(() => held.length).toBe(2);
    expect(await rows("SELECT count(*) AS n FROM jobs WHERE status = 'running'")).toEqual([
      { n: 2 },
    ]);
    held.shift()!();
    await expect.poll(() => held.length).toBe(2);
    for (const release of held) release();
    await expect
      .poll(() => rows("SELECT count(*) AS n FROM jobs WHERE status = 'done'"))
      .toEqual([{ n: 6 }]);
    await runner.stop();
  });
});
