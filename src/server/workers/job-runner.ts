import type { Db } from "@/server/db/database";
import type { Clock } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { Logger } from "@/server/lib/logger";

export interface JobRecord {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

export interface JobKind {
  run(payload: unknown, job: JobRecord): Promise<void> | void;
  maxAttempts?: number;
  /** Delay before attempt n+1 after n failed attempts. */
  backoffMs?: (attempts: number) => number;
}

export interface EnqueueOptions {
  runAt?: number;
  /** At most one queued or running job per unique key; enqueueing again is a no-op. */
  uniqueKey?: string;
  maxAttempts?: number;
}

const defaultBackoff = (attempts: number) => Math.min(60_000 * 2 ** (attempts - 1), 3_600_000);

/**
 * Durable background jobs in SQLite. A job is claimed with a lease; a process that dies
 * mid-job leaves a lease that expires, and the job is claimed again. Handlers must be
 * idempotent for that reason.
 */
export class JobRunner {
  private kinds = new Map<string, JobKind>();
  private timer: NodeJS.Timeout | null = null;
  private running = new Set<Promise<void>>();
  private heartbeats = new Set<NodeJS.Timeout>();
  private stopped = true;
  readonly owner = `worker-${process.pid}-${newId()}`;

  constructor(
    private db: Db,
    private clock: Clock,
    private log: Logger,
    private options: { leaseMs?: number; pollMs?: number; concurrency?: number } = {},
  ) {}

  private get leaseMs() {
    return this.options.leaseMs ?? 60_000;
  }

  register(kind: string, handler: JobKind) {
    this.kinds.set(kind, handler);
  }

  /** Adds a job using the runner's connection, so it joins the caller's open transaction. */
  enqueue(kind: string, payload: unknown, opts: EnqueueOptions = {}): string | null {
    const now = this.clock.now();
    const id = newId();
    const result = this.db
      .prepare(
        `INSERT INTO jobs (id, kind, payload, status, unique_key, attempts, max_attempts, run_at, created_at, updated_at)
         VALUES (?, ?, ?, 'queued', ?, 0, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
      )
      .run(
        id,
        kind,
        JSON.stringify(payload),
        opts.uniqueKey ?? null,
        opts.maxAttempts ?? this.kinds.get(kind)?.maxAttempts ?? 5,
        opts.runAt ?? now,
        now,
        now,
      );
    if (result.changes === 0) return null;
    if ((opts.runAt ?? now) <= now) setImmediate(() => this.wake());
    return id;
  }

  private claim(): (JobRecord & { rawPayload: string }) | null {
    const now = this.clock.now();
    const kinds = [...this.kinds.keys()];
    if (kinds.length === 0) return null;
    // The due job is found with a read and claimed only if it is still due: an UPDATE that finds
    // nothing would still take the write lock on every poll.
    const due = this.db
      .prepare(
        `SELECT id FROM jobs
         WHERE kind IN (SELECT value FROM json_each(?))
           AND ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND lease_expires_at <= ?))
         ORDER BY run_at, id LIMIT 1`,
      )
      .get(JSON.stringify(kinds), now, now) as { id: string } | undefined;
    if (!due) return null;
    const row = this.db
      .prepare(
        `UPDATE jobs SET status = 'running', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1, updated_at = ?
         WHERE id = ?
           AND ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND lease_expires_at <= ?))
         RETURNING id, kind, payload, attempts, max_attempts`,
      )
      .get(this.owner, now + this.leaseMs, now, due.id, now, now) as
      | { id: string; kind: string; payload: string; attempts: number; max_attempts: number }
      | undefined;
    if (!row) return null;
    return {
      id: row.id,
      kind: row.kind,
      payload: JSON.parse(row.payload),
      rawPayload: row.payload,
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
    };
  }

  private async execute(job: JobRecord) {
    const kind = this.kinds.get(job.kind)!;
    const heartbeat = setInterval(() => {
      try {
        this.db
          .prepare("UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND lease_owner = ?")
          .run(this.clock.now() + this.leaseMs, job.id, this.owner);
      } catch (err) {
        // A busy database (a long write by a CLI) misses one beat; the lease outlasts three.
        this.log.warn("job heartbeat failed", { jobId: job.id, err });
      }
    }, this.leaseMs / 3);
    this.heartbeats.add(heartbeat);
    let failure: { error: unknown } | null = null;
    try {
      await kind.run(job.payload, job);
    } catch (error) {
      failure = { error };
    } finally {
      clearInterval(heartbeat);
      this.heartbeats.delete(heartbeat);
    }
    // Recorded only while the lease is ours: once it expired and another worker claimed the
    // job (or stop() released it), the outcome that counts is that worker's.
    const now = this.clock.now();
    let changes: number;
    if (!failure) {
      changes = this.db
        .prepare(
          `UPDATE jobs SET status = 'done', lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
           WHERE id = ? AND lease_owner = ?`,
        )
        .run(now, job.id, this.owner).changes;
    } else {
      const { error } = failure;
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= job.maxAttempts;
      const next = now + (kind.backoffMs ?? defaultBackoff)(job.attempts);
      changes = this.db
        .prepare(
          `UPDATE jobs SET status = ?, run_at = ?, last_error = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
           WHERE id = ? AND lease_owner = ?`,
        )
        .run(
          final ? "failed" : "queued",
          next,
          message.slice(0, 2000),
          now,
          job.id,
          this.owner,
        ).changes;
      this.log.warn("job failed", {
        jobId: job.id,
        kind: job.kind,
        attempt: job.attempts,
        final,
        err: error,
      });
    }
    if (changes === 0) {
      this.log.warn("job outcome dropped: its lease had passed to another run", {
        jobId: job.id,
        kind: job.kind,
        attempt: job.attempts,
      });
    }
  }

  /** Claims and runs due jobs until none is due (or `limit` ran). Tests drive the runner with this. */
  async runDue(limit = Number.POSITIVE_INFINITY): Promise<number> {
    let ran = 0;
    while (ran < limit) {
      const job = this.claim();
      if (!job) break;
      await this.execute(job);
      ran++;
    }
    return ran;
  }

  start() {
    this.stopped = false;
    this.schedule(0);
  }

  wake() {
    if (this.stopped) return;
    this.schedule(0);
  }

  private schedule(delay: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), delay);
    this.timer.unref();
  }

  private tick() {
    this.timer = null;
    if (this.stopped) return;
    const concurrency = this.options.concurrency ?? 2;
    try {
      while (this.running.size < concurrency) {
        const job = this.claim();
        if (!job) break;
        const p = this.execute(job)
          // The job's outcome could not be written (the database stayed busy): its lease
          // expires and it runs again, which is what a durable job promises.
          .catch((err) => this.log.error("job outcome not recorded", { jobId: job.id, err }))
          .finally(() => {
            this.running.delete(p);
            this.wake();
          });
        this.running.add(p);
      }
    } catch (err) {
      // A busy database must not take the process down: claim again on the next poll.
      this.log.warn("job claim failed", { err });
    }
    this.schedule(this.options.pollMs ?? 1000);
  }

  /**
   * Stops claiming, waits up to `graceMs` for jobs in flight, then releases every lease it still
   * holds so that another process (or the next start) takes those jobs at once. A job still
   * running then is not stopped, but its outcome is no longer recorded.
   */
  async stop(graceMs = 10_000) {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    let deadline: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.allSettled([...this.running]).then(() => true),
      new Promise<false>((resolve) => {
        deadline = setTimeout(() => resolve(false), graceMs);
      }),
    ]);
    clearTimeout(deadline);
    if (!finished) {
      this.log.warn("jobs still running at the shutdown deadline; releasing their leases", {
        running: this.running.size,
      });
    }
    // A released lease must not be renewed (nor the database touched after it closes).
    for (const heartbeat of this.heartbeats) clearInterval(heartbeat);
    this.heartbeats.clear();
    this.db
      .prepare(
        "UPDATE jobs SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL, attempts = attempts - 1 WHERE status = 'running' AND lease_owner = ?",
      )
      .run(this.owner);
  }
}
