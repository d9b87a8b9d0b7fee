import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import type { Claim, JobFailure, JobQueue, LeasedJob, NewJob } from "./job-queue";

/**
 * The job queue in SQLite: each call runs its statements synchronously inside the async call, so
 * the embedded profile keeps its speed. One writer at a time (the database's lock) makes the
 * read-then-lease of a claim safe between processes on the same file.
 */
export class SqliteJobQueue implements JobQueue {
  constructor(private db: Db) {}

  enqueueInTransaction(j: NewJob) {
    return (
      stmt(
        this.db,
        `INSERT INTO jobs (id, kind, payload, status, unique_key, attempts, max_attempts, run_at, created_at, updated_at)
         VALUES (?, ?, ?, 'queued', ?, 0, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
      ).run(j.id, j.kind, j.payload, j.uniqueKey, j.maxAttempts, j.runAt, j.now, j.now).changes > 0
    );
  }

  async enqueue(j: NewJob) {
    return this.enqueueInTransaction(j);
  }

  /**
   * A read first, because an UPDATE that finds nothing would still take the write lock on every
   * poll; then each job is leased only if it is still due (another process may have claimed it
   * since the read).
   */
  async claim(c: Claim) {
    const due = stmt<[string, number, number, number], string>(
      this.db,
      `SELECT id FROM jobs
       WHERE kind IN (SELECT value FROM json_each(?))
         AND ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND lease_expires_at <= ?))
       ORDER BY run_at, id LIMIT ?`,
    )
      .pluck()
      .all(JSON.stringify(c.kinds), c.now, c.now, c.limit);
    const lease = stmt<[string, number, number, string, number, number], LeasedJob>(
      this.db,
      `UPDATE jobs SET status = 'running', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1, updated_at = ?
       WHERE id = ?
         AND ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND lease_expires_at <= ?))
       RETURNING id, kind, payload, attempts, max_attempts`,
    );
    const leased: LeasedJob[] = [];
    for (const id of due) {
      const row = lease.get(c.owner, c.now + c.leaseMs, c.now, id, c.now, c.now);
      if (row) leased.push(row);
    }
    return leased;
  }

  async renew(id: string, owner: string, until: number) {
    return (
      stmt(this.db, "UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND lease_owner = ?").run(
        until,
        id,
        owner,
      ).changes > 0
    );
  }

  async complete(id: string, owner: string, now: number) {
    return (
      stmt(
        this.db,
        `UPDATE jobs SET status = 'done', lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
         WHERE id = ? AND lease_owner = ?`,
      ).run(now, id, owner).changes > 0
    );
  }

  async fail(id: string, owner: string, f: JobFailure) {
    return (
      stmt(
        this.db,
        `UPDATE jobs SET status = ?, run_at = ?, last_error = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
         WHERE id = ? AND lease_owner = ?`,
      ).run(f.final ? "failed" : "queued", f.runAt, f.error, f.now, id, owner).changes > 0
    );
  }

  async release(owner: string) {
    return stmt(
      this.db,
      `UPDATE jobs SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL, attempts = attempts - 1
       WHERE status = 'running' AND lease_owner = ?`,
    ).run(owner).changes;
  }
}
