import type { PgClient } from "@/server/db/pg/pool";
import type { AfterSentPg } from "@/server/modules/mail/mail-store.pg";
import { insertUnitJob } from "@/server/workers/jobs.pg";
import { EXPIRE_ATTEMPTS, EXPIRE_JOB, expiryKey } from "./lifecycle.service";
import type { NewShare, SnapshotFileRow } from "./shares.repository";

/* The rows a share's units write on PostgreSQL, in the unit's transaction (shares-store.pg.ts). */

/** The row and its files, the files in one statement however many there are. */
export async function insertSharePg(c: PgClient, row: NewShare, files: SnapshotFileRow[]) {
  await c.query(
    `INSERT INTO shares (id, workspace_id, member_id, key_id, title, message, link_token, open_link,
       password_hash, expires_at, max_downloads, file_count, total_bytes, items, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)`,
    [
      row.id,
      row.workspace_id,
      row.member_id,
      row.key_id,
      row.title,
      row.message,
      row.link_token,
      row.open_link,
      row.password_hash,
      row.expires_at,
      row.max_downloads,
      row.file_count,
      row.total_bytes,
      row.items,
      row.created_at,
    ],
  );
  await c.query(
    `INSERT INTO share_files (share_id, idx, path, size, sha256, mime)
     SELECT $1, f.idx - 1, f.path, f.size, f.sha256, f.mime
     FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[]) WITH ORDINALITY
       AS f(path, size, sha256, mime, idx)`,
    [
      row.id,
      files.map((f) => f.path),
      files.map((f) => f.size),
      files.map((f) => f.sha256),
      files.map((f) => f.mime),
    ],
  );
}

/** shares.repository.ts's holdBlobs: one grouped update over the share's files. */
export async function holdBlobsPg(c: PgClient, shareId: string, delta: 1 | -1) {
  await c.query(
    `UPDATE blobs SET ref_count = ref_count + d.n * $1
     FROM (SELECT sha256, count(*) AS n FROM share_files WHERE share_id = $2 GROUP BY sha256) AS d
     WHERE blobs.sha256 = d.sha256`,
    [delta, shareId],
  );
}

export function scheduleExpiryPg(c: PgClient, shareId: string, expiresAt: number, now: number) {
  const job = {
    kind: EXPIRE_JOB,
    payload: { shareId, expiresAt },
    uniqueKey: expiryKey(shareId, expiresAt),
    runAt: expiresAt,
    maxAttempts: EXPIRE_ATTEMPTS,
  };
  return insertUnitJob(c, job, now);
}

/** shareMailSent on PostgreSQL: the recipient's `sentAt` moves with the message's `sent`. */
export const shareMailSentPg: AfterSentPg = async (c, m, now) => {
  if (m.recipient_id)
    await c.query("UPDATE share_recipients SET sent_at = $1 WHERE id = $2", [now, m.recipient_id]);
};
