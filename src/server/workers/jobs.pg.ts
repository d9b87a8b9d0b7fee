import type { PgClient, PgPool } from "@/server/db/pg/pool";
import { newId } from "@/server/lib/ids";
import type { Claim, JobFailure, JobQueue, LeasedJob, NewJob } from "./job-queue";

/**
 * Inserts a job on a pool, or on a unit's client so that it commits with the unit's writes
 * (false: its unique key is held by a queued or running job).
 */
export async function insertJob(db: PgPool | PgClient, j: NewJob) {
  const r = await db.query(
    `INSERT INTO jobs (id, kind, payload, status, unique_key, attempts, max_attempts, run_at, created_at, updated_at)
     VALUES ($1, $2, $3, 'queued', $4, 0, $5, $6, $7, $7)
     ON CONFLICT DO NOTHING`,
    [j.id, j.kind, j.payload, j.uniqueKey, j.maxAttempts, j.runAt, j.now],
  );
  return r.rowCount === 1;
}

/** A job as a unit makes it (JobRunner.enqueue's options spelled out), before its id and times. */
export interface UnitJob {
  kind: string;
  payload: unknown;
  uniqueKey: string;
  runAt: number;
  maxAttempts: number;
}

/** insertJob for a unit's job, in the unit's transaction. */
export const insertUnitJob = (c: PgClient, j: UnitJob, now: number) =>
  insertJob(c, { ...j, id: newId(), payload: JSON.stringify(j.payload), now });

/**
 * The job queue in PostgreSQL, shared by any number of processes. A claim is one statement: the
 * due rows are locked with SKIP LOCKED, so concurrent claimers each take different jobs without
 * waiting on one another, and the lease is written in the same statement. The unique key is the
 * baseline's partial unique index (jobs_unique_pending, over queued and running jobs).
 */
export class PgJobQueue implements JobQueue {
  constructor(private pool: PgPool) {}

  enqueue(j: NewJob) {
    return insertJob(this.pool, j);
  }

  /**
   * A row another claimer committed between this statement's snapshot and its lock is checked
   * again on the newest version (READ COMMITTED re-evaluates the WHERE of a locked row), so a job
   * leased meanwhile is not taken twice.
   */
  async claim(c: Claim) {
    const r = await this.pool.query<LeasedJob>(
      `UPDATE jobs SET status = 'running', lease_owner = $1, lease_expires_at = $2,
         attempts = attempts + 1, updated_at = $3
       WHERE id IN (
         SELECT id FROM jobs
         WHERE kind = ANY($4::text[])
           AND ((status = 'queued' AND run_at <= $3) OR (status = 'running' AND lease_expires_at <= $3))
         ORDER BY run_at, id
         FOR UPDATE SKIP LOCKED
         LIMIT $5)
       RETURNING id, kind, payload, attempts, max_attempts`,
      [c.owner, c.now + c.leaseMs, c.now, c.kinds, c.limit],
    );
    return r.rows;
  }

  async renew(id: string, owner: string, until: number) {
    const r = await this.pool.query(
      "UPDATE jobs SET lease_expires_at = $1 WHERE id = $2 AND lease_owner = $3",
      [until, id, owner],
    );
    return r.rowCount === 1;
  }

  async complete(id: string, owner: string, now: number) {
    const r = await this.pool.query(
      `UPDATE jobs SET status = 'done', lease_owner = NULL, lease_expires_at = NULL, updated_at = $1
       WHERE id = $2 AND lease_owner = $3`,
      [now, id, owner],
    );
    return r.rowCount === 1;
  }

  async fail(id: string, owner: string, f: JobFailure) {
    const r = await this.pool.query(
      `UPDATE jobs SET status = $1, run_at = $2, last_error = $3, lease_owner = NULL,
         lease_expires_at = NULL, updated_at = $4
       WHERE id = $5 AND lease_owner = $6`,
      [f.final ? "failed" : "queued", f.runAt, f.error, f.now, id, owner],
    );
    return r.rowCount === 1;
  }

  async release(owner: string) {
    const r = await this.pool.query(
      `UPDATE jobs SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL,
         attempts = attempts - 1
       WHERE status = 'running' AND lease_owner = $1`,
      [owner],
    );
    return r.rowCount ?? 0;
  }
}
