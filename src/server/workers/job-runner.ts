import type { Db } from "@/server/db/database";
import type { Clock } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { Logger } from "@/server/lib/logger";
import type { EnqueueOptions, JobKind, JobRecord } from "./job-kind";
import type { JobQueue, LeasedJob, NewJob } from "./job-queue";
import { SqliteJobQueue } from "./jobs.repository";

export type { EnqueueOptions, JobKind, JobRecord } from "./job-kind";

const defaultBackoff = (attempts: number) => Math.min(60_000 * 2 ** (attempts - 1), 3_600_000);

/**
 * Durable background jobs over a JobQueue (SQLite's database, or PostgreSQL's shared by many
 * processes). A job is claimed with a lease; a process that dies mid-job leaves a lease that
 * expires, and the job is claimed again. Handlers must be idempotent for that reason.
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
  private readonly queue: JobQueue;
  /** The claim in flight, so a wake during it claims again after it rather than beside it. */
  private ticking: Promise<void> | null = null;
  private tickAgain = false;
  /** Enqueues that cannot join a transaction (PostgreSQL), awaited by runDue() and stop(). */
  private inserting = new Set<Promise<void>>();
  /** Jobs running here whose lease a heartbeat found gone, or stop() gave back. */

  /** `source`: the SQLite database (the embedded profile) or another engine's queue. */
  constructor(
    source: Db | JobQueue,
    private clock: Clock,
    private log: Logger,
    private options: { leaseMs?: number; pollMs?: number; concurrency?: number } = {},
  ) {
    this.queue = "claim" in source ? source : new SqliteJobQueue(source);
  }

  /** Waits for the enqueues still being written in the background (before a pool closes). */
  async flush() {
    await Promise.allSettled([...this.inserting]);
  }

  private get leaseMs() {
    return this.options.leaseMs ?? 60_000;
  }

  register(kind: string, handler: JobKind) {
    this.kinds.set(kind, handler);
  }

  /**
   * Adds a job. On SQLite it joins the caller's open transaction (null: the unique key was
   * held). PostgreSQL's cannot join it, so it inserts in the background: the id comes back at
   * once, a held key is a silent no-op, a failed insert is logged and handed to `lost`.
   */
  enqueue(
    kind: string,
    payload: unknown,
    opts: EnqueueOptions = {},
    lost?: (err: unknown) => void,
  ): string | null {
    const job = this.newJob(kind, payload, opts);
    if (this.queue.enqueueInTransaction) {
      if (!this.queue.enqueueInTransaction(job)) return null;
      this.wakeIfDue(job);
      return job.id;
    }
    const p = this.queue
      .enqueue(job)
      .then((added) => {
        if (added) this.wakeIfDue(job);
      })
      .catch((err) => {
        this.log.error("job not queued", { kind, err });
        lost?.(err);
      })
      .finally(() => this.inserting.delete(p));
    this.inserting.add(p);
    return job.id;
  }

  /** Adds a job and says whether it was added (null: its unique key was held), on any engine. */
  async add(kind: string, payload: unknown, opts: EnqueueOptions = {}): Promise<string | null> {
    const job = this.newJob(kind, payload, opts);
    if (!(await this.queue.enqueue(job))) return null;
    this.wakeIfDue(job);
    return job.id;
  }

  /** The row enqueue would add: for a unit that inserts its job in its own transaction. */
  newJob(kind: string, payload: unknown, opts: EnqueueOptions = {}): NewJob {
    const now = this.clock.now();
    return {
      id: newId(),
      kind,
      payload: JSON.stringify(payload),
      uniqueKey: opts.uniqueKey ?? null,
      maxAttempts: opts.maxAttempts ?? this.kinds.get(kind)?.maxAttempts ?? 5,
      runAt: opts.runAt ?? now,
      now,
    };
  }

  private wakeIfDue(job: NewJob) {
    if (job.runAt <= job.now) setImmediate(() => this.wake());
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
    // An engine that inserts in the background reports a lost slot later: queued on a later poll.
    const enqueueSlot = (at: number) =>
      this.enqueue(kind, {}, { runAt: at, uniqueKey: `${kind}:${Math.floor(at / everyMs)}` }, () =>
        this.unqueued.set(kind, enqueueNext),
      );
    const enqueueNext = () => enqueueSlot((Math.floor(this.clock.now() / everyMs) + 1) * everyMs);
    this.register(kind, {
      maxAttempts: 1,
      run: () => {
        enqueueNext();
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
      this.unqueued.set(kind, enqueueNext);
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

  /**
   * The claims a tick may make now: shared kinds up to the shared slots left, and each pooled
   * kind up to its own cap (one claim each, so a pool never takes a shared slot).
   */
  private claimsWithRoom() {
    const pooledRunning = [...this.pooled.values()].reduce((a, b) => a + b, 0);
    const sharedRoom = (this.options.concurrency ?? 2) - (this.running.size - pooledRunning);
    const claims: { kinds: string[]; limit: number }[] = [];
    const shared: string[] = [];
    for (const [name, kind] of this.kinds) {
      if (kind.concurrency === undefined) shared.push(name);
      else {
        const room = kind.concurrency - (this.pooled.get(name) ?? 0);
        if (room > 0) claims.push({ kinds: [name], limit: room });
      }
    }
    if (sharedRoom > 0 && shared.length > 0) claims.unshift({ kinds: shared, limit: sharedRoom });
    return claims;
  }

  private async claim(kinds: string[], limit: number): Promise<JobRecord[]> {
    if (kinds.length === 0) return [];
    const rows = await this.queue.claim({
      kinds,
      limit,
      owner: this.owner,
      now: this.clock.now(),
      leaseMs: this.leaseMs,
    });
    return rows.map((row: LeasedJob) => ({
      id: row.id,
      kind: row.kind,
      payload: JSON.parse(row.payload),
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
    }));
  }

  private async execute(job: JobRecord) {
    const kind = this.kinds.get(job.kind)!;
    const heartbeat = setInterval(() => {
      this.queue.renew(job.id, this.owner, this.clock.now() + this.leaseMs).catch((err) => {
        // A busy database (a long write by a CLI) misses one beat; the lease outlasts three.
        this.log.warn("job heartbeat failed", { jobId: job.id, err });
      });
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
      recorded = await this.queue.complete(job.id, this.owner, now);
    } else {
      const { error } = failure;
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= job.maxAttempts;
      recorded = await this.queue.fail(job.id, this.owner, {
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

  /** Claims and runs due jobs one by one until none is due (or `limit` ran). Tests drive the runner with this. */
  async runDue(limit = Number.POSITIVE_INFINITY): Promise<number> {
    // Only when there are any: the claim below starts in the caller's turn otherwise.
    if (this.inserting.size > 0) await this.flush();
    this.queueUnqueued();
    let ran = 0;
    while (ran < limit) {
      const [job] = await this.claim([...this.kinds.keys()], 1);
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
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = this.claimAndStart()
      .catch((err) => {
        // A busy database must not take the process down: claim again on the next poll.
        this.log.warn("job claim failed", { err });
      })
      .finally(() => {
        this.ticking = null;
        if (this.stopped) return;
        this.schedule(this.tickAgain ? 0 : (this.options.pollMs ?? 1000));
        this.tickAgain = false;
      });
  }

  /** Claims while there is room and jobs are due, starting each job as it is claimed. */
  private async claimAndStart() {
    this.queueUnqueued();
    for (;;) {
      let started = 0;
      for (const { kinds, limit } of this.claimsWithRoom()) {
        for (const job of await this.claim(kinds, limit)) {
          this.begin(job);
          started++;
        }
      }
      if (started === 0) return;
    }
  }

  private begin(job: JobRecord) {
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

  /**
   * Stops claiming, waits up to `graceMs` for jobs in flight, then releases every lease it still
   * holds so that another process (or the next start) takes those jobs at once. A job still
   * running then is not stopped, but its outcome is no longer recorded.
   */
  async stop(graceMs = 10_000) {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    // A claim in flight starts its jobs before the wait below counts them.
    await this.ticking;
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
    await this.flush();
    await this.queue.release(this.owner);
  }
}
