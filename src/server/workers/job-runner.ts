import type { Db } from "@/server/db/database";
import type { Clock } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { Logger } from "@/server/lib/logger";
import {
  findDueJob,
  insertJob,
  leaseJob,
  markJobDone,
  markJobFailed,
  releaseJobLeases,
  renewJobLease,
} from "./jobs.repository";

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
  /**
   * A pool of its own: at most this many jobs of the kind run at once in this process, and they
   * do not count against the runner's shared concurrency, so long jobs (a video transcode) never
   * hold up the short ones every area queues.
   */
  concurrency?: number;
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
  /** Jobs in flight per kind with a pool of its own (JobKind.concurrency). */
  private pooled = new Map<string, number>();
  private heartbeats = new Set<NodeJS.Timeout>();
  private stopped = true;
  /** Recurring jobs whose slot could not be queued yet, with what queues it. */
  private readonly unqueued = new Map<string, () => void>();
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
    const runAt = opts.runAt ?? now;
    const added = insertJob(this.db, {
      id,
      kind,
      payload: JSON.stringify(payload),
      uniqueKey: opts.uniqueKey ?? null,
      maxAttempts: opts.maxAttempts ?? this.kinds.get(kind)?.maxAttempts ?? 5,
      runAt,
      now,
    });
    if (!added) return null;
    if (runAt <= now) setImmediate(() => this.wake());
    return id;
  }

  /**
   * A job that recurs every `everyMs`, at the start of each slot. Each run first enqueues the
   * next slot, so a run that fails still leaves the next one queued (that is its retry; retries
   * of its own would only queue up beside the next slot's run). The unique key names the slot,
   * so a restart, which enqueues the current slot, never stacks duplicate runs.
   *
   * A slot the database cannot take (a full disk) must not stop the start: the work runs now in
   * this process (recurring work is idempotent, and the cleanup that frees space is among it)
   * and the next slot is queued on a later poll.
   */
  every(kind: string, everyMs: number, run: () => Promise<void> | void) {
    const enqueueSlot = (at: number) =>
      this.enqueue(kind, {}, { runAt: at, uniqueKey: `${kind}:${Math.floor(at / everyMs)}` });
    this.register(kind, {
      maxAttempts: 1,
      run: () => {
        enqueueSlot((Math.floor(this.clock.now() / everyMs) + 1) * everyMs);
        return run();
      },
    });
    try {
      enqueueSlot(this.clock.now());
    } catch (err) {
      this.log.error("recurring job not queued; it runs now and is queued on a later poll", {
        kind,
        err,
      });
      // The slot after this one: this one's work is running now.
      this.unqueued.set(kind, () =>
        enqueueSlot((Math.floor(this.clock.now() / everyMs) + 1) * everyMs),
      );
      const p = (async () => run())()
        .catch((error) => this.log.warn("job failed", { kind, err: error }))
        .finally(() => this.running.delete(p));
      this.running.add(p);
    }
  }

  private queueUnqueued() {
    for (const [kind, enqueueSlot] of this.unqueued) {
      try {
        enqueueSlot();
        this.unqueued.delete(kind);
      } catch {
        // Still no room: the next poll tries again (the failure was logged when it began).
      }
    }
  }

  /** The kinds a claim may take now: shared ones while `shared` has room, pooled ones below their cap. */
  private claimable(shared: boolean) {
    return [...this.kinds].flatMap(([name, kind]) => {
      if (kind.concurrency === undefined) return shared ? [name] : [];
      return (this.pooled.get(name) ?? 0) < kind.concurrency ? [name] : [];
    });
  }

  private claim(kinds = [...this.kinds.keys()]): JobRecord | null {
    const now = this.clock.now();
    if (kinds.length === 0) return null;
    const due = findDueJob(this.db, kinds, now);
    if (due === undefined) return null;
    const row = leaseJob(this.db, due, this.owner, now, this.leaseMs);
    if (!row) return null;
    return {
      id: row.id,
      kind: row.kind,
      payload: JSON.parse(row.payload),
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
    };
  }

  private async execute(job: JobRecord) {
    const kind = this.kinds.get(job.kind)!;
    const heartbeat = setInterval(() => {
      try {
        renewJobLease(this.db, job.id, this.owner, this.clock.now() + this.leaseMs);
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
    let recorded: boolean;
    if (!failure) {
      recorded = markJobDone(this.db, job.id, this.owner, now);
    } else {
      const { error } = failure;
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= job.maxAttempts;
      recorded = markJobFailed(this.db, job.id, this.owner, {
        final,
        runAt: now + (kind.backoffMs ?? defaultBackoff)(job.attempts),
        error: message.slice(0, 2000),
        now,
      });
      this.log.warn("job failed", {
        jobId: job.id,
        kind: job.kind,
        attempt: job.attempts,
        final,
        err: error,
      });
    }
    if (!recorded) {
      this.log.warn("job outcome dropped: its lease had passed to another run", {
        jobId: job.id,
        kind: job.kind,
        attempt: job.attempts,
      });
    }
  }

  /** Claims and runs due jobs until none is due (or `limit` ran). Tests drive the runner with this. */
  async runDue(limit = Number.POSITIVE_INFINITY): Promise<number> {
    this.queueUnqueued();
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
      this.queueUnqueued();
      for (;;) {
        const sharedRunning =
          this.running.size - [...this.pooled.values()].reduce((a, b) => a + b, 0);
        const job = this.claim(this.claimable(sharedRunning < concurrency));
        if (!job) break;
        const pool = this.kinds.get(job.kind)?.concurrency !== undefined ? job.kind : null;
        if (pool) this.pooled.set(pool, (this.pooled.get(pool) ?? 0) + 1);
        const p = this.execute(job)
          // The job's outcome could not be written (the database stayed busy): its lease
          // expires and it runs again, which is what a durable job promises.
          .catch((err) => this.log.error("job outcome not recorded", { jobId: job.id, err }))
          .finally(() => {
            this.running.delete(p);
            if (pool) this.pooled.set(pool, this.pooled.get(pool)! - 1);
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
    releaseJobLeases(this.db, this.owner);
  }
}
