import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

export interface NewJob {
  id: string;
  kind: string;
  payload: string;
  uniqueKey: string | null;
  maxAttempts: number;
  runAt: number;
  now: number;
}

export interface LeasedJob {
  id: string;
  kind: string;
  payload: string;
  attempts: number;
  max_attempts: number;
}

/** False when a queued or running job already holds the unique key. */
export const insertJob = (db: Db, j: NewJob) =>
  stmt(
    db,
    `INSERT INTO jobs (id, kind, payload, status, unique_key, attempts, max_attempts, run_at, created_at, updated_at)
     VALUES (?, ?, ?, 'queued', ?, 0, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  ).run(j.id, j.kind, j.payload, j.uniqueKey, j.maxAttempts, j.runAt, j.now, j.now).changes > 0;

/**
 * The next due job of the given kinds: queued and due, or running on a lease that has expired.
 * A read, because an UPDATE that finds nothing would still take the write lock on every poll.
 */
export const findDueJob = (db: Db, kinds: string[], now: number) =>
  stmt<[string, number, number], { id: string }>(
    db,
    `SELECT id FROM jobs
     WHERE kind IN (SELECT value FROM json_each(?))
       AND ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND lease_expires_at <= ?))
     ORDER BY run_at, id LIMIT 1`,
  ).get(JSON.stringify(kinds), now, now)?.id;

/** Leases the job if it is still due (another worker may have claimed it since the read). */
export const leaseJob = (db: Db, id: string, owner: string, now: number, leaseMs: number) =>
  stmt<[string, number, number, string, number, number], LeasedJob>(
    db,
    `UPDATE jobs SET status = 'running', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1, updated_at = ?
     WHERE id = ?
       AND ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND lease_expires_at <= ?))
     RETURNING id, kind, payload, attempts, max_attempts`,
  ).get(owner, now + leaseMs, now, id, now, now);

export const renewJobLease = (db: Db, id: string, owner: string, until: number) =>
  stmt(db, "UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND lease_owner = ?").run(
    until,
    id,
    owner,
  );

/** False when the lease had passed to another run, whose outcome then stands. */
export const markJobDone = (db: Db, id: string, owner: string, now: number) =>
  stmt(
    db,
    `UPDATE jobs SET status = 'done', lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
     WHERE id = ? AND lease_owner = ?`,
  ).run(now, id, owner).changes > 0;

/** Queues the job again at `runAt`, or marks it failed for good; false as for markJobDone. */
export const markJobFailed = (
  db: Db,
  id: string,
  owner: string,
  f: { final: boolean; runAt: number; error: string; now: number },
) =>
  stmt(
    db,
    `UPDATE jobs SET status = ?, run_at = ?, last_error = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
     WHERE id = ? AND lease_owner = ?`,
  ).run(f.final ? "failed" : "queued", f.runAt, f.error, f.now, id, owner).changes > 0;

/** Gives back every lease the owner holds, uncounting the attempts they had begun. */
export const releaseJobLeases = (db: Db, owner: string) =>
  stmt(
    db,
    `UPDATE jobs SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL, attempts = attempts - 1
     WHERE status = 'running' AND lease_owner = ?`,
  ).run(owner);
