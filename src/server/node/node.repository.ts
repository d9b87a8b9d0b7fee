import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

/** A `transfer_uploads` row (migration 0007): one tus upload of a send. */
export interface UploadRow {
  id: string;
  transfer_id: string;
  workspace_id: string;
  path: string;
  size: number | null;
  offset: number;
  sha256: string | null;
  metadata: string;
  status: "uploading" | "committed" | "failed" | "cancelled";
  error: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
  /** The bucket side of an upload on S3 (MultipartState, JSON); null for one staged on disk. */
  multipart: string | null;
  /** Who appends now, until when (uploads on S3: any node may take the next request). */
  lease_owner: string | null;
  lease_until: number | null;
}

/** What the node keeps of an upload beside its row: the client's metadata and the encryption. */
export interface UploadMeta {
  /** The whole file's SHA-256 the engine declared (hex), checked at the last byte. */
  expectedSha256?: string;
  /** The file's modification time on the engine's machine (epoch ms). */
  mtime?: number;
  /** Content protection: the file's IV and the key check of the password it was written with. */
  iv?: string;
  keyCheck?: string;
}

export const uploadById = (db: Db, id: string) =>
  stmt<[string], UploadRow>(db, "SELECT * FROM transfer_uploads WHERE id = ?").get(id);

export const insertUpload = (
  db: Db,
  row: Pick<
    UploadRow,
    | "id"
    | "transfer_id"
    | "workspace_id"
    | "path"
    | "size"
    | "metadata"
    | "created_at"
    | "expires_at"
  >,
) =>
  stmt(
    db,
    `INSERT INTO transfer_uploads (id, transfer_id, workspace_id, path, size, offset, metadata, status,
       created_at, updated_at, expires_at)
     VALUES (@id, @transfer_id, @workspace_id, @path, @size, 0, @metadata, 'uploading',
       @created_at, @created_at, @expires_at)`,
  ).run(row);

/**
 * The append lease of an upload on S3: one request at a time, on whichever node, may write
 * it. Taken when free or lapsed (a killed node's); false when another request holds it.
 */
export const takeLease = (db: Db, id: string, owner: string, now: number, until: number) =>
  stmt(
    db,
    `UPDATE transfer_uploads SET lease_owner = ?, lease_until = ?
     WHERE id = ? AND status = 'uploading' AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)`,
  ).run(owner, until, id, owner, now).changes === 1;

export const dropLease = (db: Db, id: string, owner: string) =>
  stmt(
    db,
    "UPDATE transfer_uploads SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?",
  ).run(id, owner);

/**
 * Records an upload's bucket side and offset, and renews the lease, only while `owner` holds
 * it: false when the lease lapsed and another request took the upload over.
 */
export const recordParts = (
  db: Db,
  id: string,
  owner: string,
  r: { multipart: string; offset: number; now: number; expiresAt: number; leaseUntil: number },
) =>
  stmt(
    db,
    `UPDATE transfer_uploads SET multipart = @multipart, offset = @offset, updated_at = @now,
       expires_at = @expiresAt, lease_until = @leaseUntil
     WHERE id = @id AND lease_owner = @owner AND status = 'uploading'`,
  ).run({ id, owner, ...r }).changes === 1;

/** Ended uploads whose bucket side is still to be let go (parts to abort, an object to delete). */
export const endedMultiparts = (db: Db, limit: number) =>
  stmt<[number], { id: string; multipart: string }>(
    db,
    `SELECT id, multipart FROM transfer_uploads
     WHERE multipart IS NOT NULL AND status <> 'uploading' LIMIT ?`,
  ).all(limit);

export const clearMultipart = (db: Db, id: string) =>
  stmt(
    db,
    "UPDATE transfer_uploads SET multipart = NULL WHERE id = ? AND status <> 'uploading'",
  ).run(id);

/** Bytes received so far; every write also pushes the upload's expiry on. */
export const recordOffset = (db: Db, id: string, offset: number, now: number, expiresAt: number) =>
  stmt(
    db,
    "UPDATE transfer_uploads SET offset = ?, updated_at = ?, expires_at = ? WHERE id = ? AND status = 'uploading'",
  ).run(offset, now, expiresAt, id);

/** Ends an upload that is still going; false when it had already ended (committed, say). */
export const endUpload = (
  db: Db,
  id: string,
  status: "committed" | "failed" | "cancelled",
  now: number,
  extra: { sha256?: string | null; error?: string | null } = {},
) =>
  stmt(
    db,
    `UPDATE transfer_uploads SET status = @status, sha256 = coalesce(@sha256, sha256),
       error = @error, updated_at = @now WHERE id = @id AND status = 'uploading'`,
  ).run({ id, status, now, sha256: extra.sha256 ?? null, error: extra.error ?? null }).changes ===
  1;

/**
 * Files and bytes a send has claimed so far, against its totals: what it committed (the
 * transfer's counters) and what is uploading (few rows), so the check stays cheap at the
 * 10,000th file.
 */
export const claimedByTransfer = (db: Db, transferId: string) =>
  stmt<[{ id: string }], { files: number; bytes: number }>(
    db,
    `SELECT t.files_committed + u.files AS files, t.bytes_committed + u.bytes AS bytes
     FROM transfers t, (SELECT count(*) AS files, coalesce(sum(size), 0) AS bytes
       FROM transfer_uploads WHERE transfer_id = @id AND status = 'uploading') u
     WHERE t.id = @id`,
  ).get({ id: transferId })!;

/**
 * The key check of one of a protected send's uploads: every upload of the transfer must have
 * the same one, so any will do (no order to sort by at the 10,000th file).
 */
export const anyKeyCheck = (db: Db, transferId: string) =>
  stmt<[string], string | null>(
    db,
    `SELECT json_extract(metadata, '$.keyCheck') FROM transfer_uploads
     WHERE transfer_id = ? AND json_extract(metadata, '$.keyCheck') IS NOT NULL LIMIT 1`,
  )
    .pluck()
    .get(transferId) ?? null;

/** Uploads still open past their expiry (abandoned), or ended without commit, for cleanup. */
export const expiredUploads = (db: Db, now: number, limit: number) =>
  stmt<[number, number], { id: string }>(
    db,
    "SELECT id FROM transfer_uploads WHERE status = 'uploading' AND expires_at < ? LIMIT ?",
  ).all(now, limit);

/** Recently ended uploads that never committed: their staging files, if any, can go. */
export const endedUncommitted = (db: Db, since: number) =>
  stmt<[number], { id: string }>(
    db,
    "SELECT id FROM transfer_uploads WHERE status IN ('failed', 'cancelled') AND updated_at >= ?",
  ).all(since);

export const addBytesServed = (db: Db, transferId: string, bytes: number) =>
  stmt(db, "UPDATE transfers SET bytes_served = bytes_served + ? WHERE id = ?").run(
    bytes,
    transferId,
  );

export const insertUsage = (
  db: Db,
  u: {
    usage_id: string;
    workspace_id: string;
    transfer_id: string;
    direction: string;
    bytes: number;
    recorded_at: number;
  },
) =>
  stmt(
    db,
    `INSERT INTO usage_records (usage_id, workspace_id, transfer_id, direction, bytes, recorded_at)
     VALUES (@usage_id, @workspace_id, @transfer_id, @direction, @bytes, @recorded_at)`,
  ).run(u);

/** A download's usage record grows as its bytes go (it is written ahead of them). */
export const setUsageBytes = (db: Db, id: number | bigint, bytes: number) =>
  stmt(db, "UPDATE usage_records SET bytes = ? WHERE id = ?").run(bytes, id);

/** A live entry as the node reads it: what it streams, and how its bytes are stored. */
export interface NodeEntry {
  path: string;
  is_file: 0 | 1;
  size: number;
  sha256: string | null;
  modified_at: number;
  protection: string | null;
}

export const entryAt = (db: Db, workspaceId: string, p: string) =>
  stmt<[string, string], NodeEntry>(
    db,
    `SELECT path, is_file, size, sha256, modified_at, protection FROM entries
     WHERE workspace_id = ? AND path = ? AND trash_id IS NULL`,
  ).get(workspaceId, p);

/** Live entries of a subtree in path order after `after` (a keyset page, for the ZIP). */
export const subtreePage = (
  db: Db,
  workspaceId: string,
  after: string,
  hi: string,
  limit: number,
) =>
  stmt<[string, string, string, number], NodeEntry>(
    db,
    `SELECT path, is_file, size, sha256, modified_at, protection FROM entries INDEXED BY entries_live_path
     WHERE workspace_id = ? AND trash_id IS NULL AND path > ? AND path < ?
     ORDER BY path LIMIT ?`,
  ).all(workspaceId, after, hi, limit);
