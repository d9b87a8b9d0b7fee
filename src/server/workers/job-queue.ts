/**
 * The durable job queue the JobRunner runs over (docs/scale-out.md, Queues and leases): one
 * async call per unit of work, so an engine across the network costs one round trip per step.
 * SQLite's implementation is jobs.repository.ts (today's statements, run inside the call);
 * PostgreSQL's is jobs.pg.ts (SKIP LOCKED claims, so any number of processes share the queue).
 *
 * Every write after the claim names the lease owner: once a lease expired and another process
 * took the job over, the old owner's renewals and outcomes are no-ops (they answer false).
 */
export interface JobQueue {
  /** False when a queued or running job already holds the unique key (nothing is added). */
  enqueue(job: NewJob): Promise<boolean>;
  /**
   * SQLite only: the insert on the caller's connection, synchronously, so it joins the caller's
   * open transaction (a module's write and the job it queues commit together).
   */
  enqueueInTransaction?(job: NewJob): boolean;
  /**
   * Leases up to `limit` jobs of `kinds` to `owner` until `now + leaseMs`, oldest run_at first:
   * queued ones that are due, and running ones whose lease has expired (their process died).
   * Each claim counts an attempt.
   */
  claim(c: Claim): Promise<LeasedJob[]>;
  /** Extends the lease while `owner` still holds it. */
  renew(id: string, owner: string, until: number): Promise<boolean>;
  complete(id: string, owner: string, now: number): Promise<boolean>;
  /** Queues the job again at `runAt`, or marks it failed for good (`final`). */
  fail(id: string, owner: string, f: JobFailure): Promise<boolean>;
  /** Gives back every lease the owner holds, uncounting the attempts they had begun. */
  release(owner: string): Promise<number>;
}

export interface NewJob {
  id: string;
  kind: string;
  /** JSON text. */
  payload: string;
  uniqueKey: string | null;
  maxAttempts: number;
  runAt: number;
  now: number;
}

export interface Claim {
  kinds: string[];
  limit: number;
  owner: string;
  now: number;
  leaseMs: number;
}

export interface LeasedJob {
  id: string;
  kind: string;
  /** JSON text. */
  payload: string;
  attempts: number;
  max_attempts: number;
}

export interface JobFailure {
  final: boolean;
  runAt: number;
  error: string;
  now: number;
}
