import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

/*
 * The bucket's deferred deletions (migration 0019, docs/scale-out.md, Bytes on S3). A row says:
 * the objects of this content may be deleted from `due_at` on, if no `blobs` row references the
 * content then. The disk store needs none of this: it deletes inside the collecting transaction.
 */

/** Content whose references are gone (or never came): its objects may go from `dueAt` on. */
export const deferDeletion = (db: Db, sha256: string, dueAt: number) =>
  stmt(
    db,
    `INSERT INTO blob_holds (sha256, due_at) VALUES (?, ?)
     ON CONFLICT (sha256) DO UPDATE SET due_at = max(due_at, excluded.due_at)`,
  ).run(sha256, dueAt);

/**
 * A stage's hold on content it is about to write: no deletion of it may start before `until`.
 * One statement, so it is atomic on its own. False when a deleter holds a live claim: its DELETE
 * may be on the wire, and an object written now could land before it.
 */
export const holdContent = (db: Db, sha256: string, until: number, now: number) =>
  stmt(
    db,
    `INSERT INTO blob_holds (sha256, due_at) VALUES (@sha256, @until)
     ON CONFLICT (sha256) DO UPDATE SET due_at = max(due_at, excluded.due_at), claimed_until = NULL
     WHERE claimed_until IS NULL OR claimed_until <= @now`,
  ).run({ sha256, until, now }).changes === 1;

/**
 * Claims up to `limit` due deletions until `leaseUntil`, re-checking the references under the
 * write lock: content referenced again only loses its row (a later collect defers it anew).
 */
export function claimDueDeletions(db: Db, now: number, leaseUntil: number, limit: number) {
  return db
    .transaction(() => {
      stmt(
        db,
        `DELETE FROM blob_holds
         WHERE due_at <= @now AND (claimed_until IS NULL OR claimed_until <= @now)
           AND EXISTS (SELECT 1 FROM blobs b WHERE b.sha256 = blob_holds.sha256)`,
      ).run({ now });
      return stmt<[{ now: number; leaseUntil: number; limit: number }], string>(
        db,
        `UPDATE blob_holds SET claimed_until = @leaseUntil
         WHERE sha256 IN (SELECT sha256 FROM blob_holds
                          WHERE due_at <= @now AND (claimed_until IS NULL OR claimed_until <= @now)
                          ORDER BY due_at LIMIT @limit)
         RETURNING sha256`,
      )
        .pluck()
        .all({ now, leaseUntil, limit });
    })
    .immediate();
}

/** The deletion is done; a hold taken since the claim ran out keeps its row. */
export const releaseClaim = (db: Db, sha256: string, leaseUntil: number) =>
  stmt(db, "DELETE FROM blob_holds WHERE sha256 = ? AND claimed_until = ?").run(sha256, leaseUntil);
