import type { DeliveryState } from "@/contract/receipt-verdict";
import { type ShareStatus, shareStatusOf } from "@/contract/shares";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import type { AnchorColumns } from "@/server/lib/media-anchor";
import { subtreeRange } from "@/server/modules/files/files.repository";

/** A `shares` row (migration 0008). Times are epoch milliseconds. */
export interface ShareRow {
  id: string;
  workspace_id: string;
  member_id: string | null;
  key_id: string | null;
  title: string;
  message: string | null;
  link_token: string;
  /** 1: the plain link opens the share (migration 0014); 0: only personal links do. */
  open_link: number;
  password_hash: string | null;
  expires_at: number;
  max_downloads: number | null;
  download_count: number;
  view_count: number;
  comment_count: number;
  file_count: number;
  total_bytes: number;
  /** JSON ShareItem[] */
  items: string;
  revoked_at: number | null;
  expired_at: number | null;
  created_at: number;
  updated_at: number;
  /** The delivery verdict (contract/receipt-verdict.ts), kept by recordDelivery. */
  verdict: DeliveryState;
}

/** A row's status at `now` (the contract's rule, `shareStatusOf`). */
export const statusOfRow = (row: ShareRow, now: number) =>
  shareStatusOf(
    {
      revokedAt: row.revoked_at,
      expiresAt: row.expires_at,
      maxDownloads: row.max_downloads,
      downloads: row.download_count,
    },
    now,
  );

export interface ShareFileRow {
  share_id: string;
  idx: number;
  path: string;
  size: number;
  sha256: string;
  mime: string | null;
}

export interface RecipientRow {
  id: string;
  share_id: string;
  email: string;
  sent_at: number | null;
  views: number;
  first_viewed_at: number | null;
  last_viewed_at: number | null;
  downloads: number;
  unverified_downloads: number;
  last_download_at: number | null;
  files_downloaded: number;
  created_at: number;
}

/** A `share_comments` row; the anchor's columns came with migration 0018. */
export interface CommentRow extends AnchorColumns {
  id: string;
  share_id: string;
  parent_id: string | null;
  body: string;
  author_kind: "member" | "recipient" | "anonymous";
  author_name: string | null;
  author_email: string | null;
  created_at: number;
}

export interface ChangeRow {
  share_id: string;
  changed_at: number;
  expires_at: number;
  previous_expires_at: number;
  max_downloads: number | null;
  previous_max_downloads: number | null;
}

/** A live file as a share snapshots it; `protection` set means its bytes are stored encrypted. */
export interface SnapshotFileRow {
  path: string;
  size: number;
  sha256: string;
  mime: string | null;
  protection: string | null;
}

/**
 * The live files at `p` (a file) or below it (a folder), in path order, at most `limit`.
 * Reads the files module's `entries`: the snapshot is taken in the creating transaction, from
 * the one index that answers it, with the columns a share keeps (and `protection`, which it
 * refuses); no files query returns that row shape.
 */
export const liveFilesAt = (db: Db, workspaceId: string, p: string, limit: number) => {
  const [lo, hi] = subtreeRange(p);
  return stmt<[string, string, string, string, number], SnapshotFileRow>(
    db,
    `SELECT path, size, sha256, mime, protection FROM entries INDEXED BY entries_live_path
     WHERE workspace_id = ? AND trash_id IS NULL AND is_file = 1
       AND (path = ? OR (path >= ? AND path < ?))
     ORDER BY path LIMIT ?`,
  ).all(workspaceId, p, lo, hi, limit);
};

export type NewShare = Omit<
  ShareRow,
  | "download_count"
  | "view_count"
  | "comment_count"
  | "revoked_at"
  | "expired_at"
  | "updated_at"
  | "verdict"
>;

export function insertShare(
  db: Db,
  row: NewShare,
  files: Omit<ShareFileRow, "share_id" | "idx">[],
) {
  stmt(
    db,
    `INSERT INTO shares (id, workspace_id, member_id, key_id, title, message, link_token, open_link,
       password_hash, expires_at, max_downloads, file_count, total_bytes, items, created_at, updated_at)
     VALUES (@id, @workspace_id, @member_id, @key_id, @title, @message, @link_token, @open_link,
       @password_hash, @expires_at, @max_downloads, @file_count, @total_bytes, @items, @created_at, @created_at)`,
  ).run(row);
  const insert = stmt(
    db,
    "INSERT INTO share_files (share_id, idx, path, size, sha256, mime) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (const [idx, f] of files.entries()) insert.run(row.id, idx, f.path, f.size, f.sha256, f.mime);
}

/**
 * The share's hold on its blobs: one reference per snapshotted file, taken in the creating
 * transaction (the files are live then, so their blob rows exist) and given back on revocation.
 * It writes the files module's `blobs`: a share holds content as a file version does, by its
 * count, and one grouped update over `share_files` counts ten thousand files at once; the files
 * module collects what reaches zero (`collectBlobs`).
 */
export const holdBlobs = (db: Db, shareId: string, delta: 1 | -1) =>
  stmt(
    db,
    `UPDATE blobs SET ref_count = ref_count + d.n * ?
     FROM (SELECT sha256, count(*) AS n FROM share_files WHERE share_id = ? GROUP BY sha256) AS d
     WHERE blobs.sha256 = d.sha256`,
  ).run(delta, shareId);

export const shareById = (db: Db, workspaceId: string, id: string) =>
  stmt<[string, string], ShareRow>(
    db,
    "SELECT * FROM shares WHERE workspace_id = ? AND id = ?",
  ).get(workspaceId, id);

/** For workers and the recipient side, which know a share by its id or token only. */
export const shareRow = (db: Db, id: string) =>
  stmt<[string], ShareRow>(db, "SELECT * FROM shares WHERE id = ?").get(id);

export const shareByLinkToken = (db: Db, token: string) =>
  stmt<[string], ShareRow>(db, "SELECT * FROM shares WHERE link_token = ?").get(token);

export const linkByTokenHash = (db: Db, hash: string) =>
  stmt<[string], { share_id: string; recipient_id: string }>(
    db,
    "SELECT share_id, recipient_id FROM share_links WHERE token_hash = ?",
  ).get(hash);

export const filesOf = (db: Db, shareId: string) =>
  stmt<[string], ShareFileRow>(db, "SELECT * FROM share_files WHERE share_id = ? ORDER BY idx").all(
    shareId,
  );

export const fileByPath = (db: Db, shareId: string, path: string) =>
  stmt<[string, string], ShareFileRow>(
    db,
    "SELECT * FROM share_files WHERE share_id = ? AND path = ?",
  ).get(shareId, path);

/**
 * SQL for a share's status at `now()` (a placeholder, made only where it is used: PostgreSQL
 * refuses a parameter no statement uses), the same rule as `shareStatusOf`.
 */
function statusWhere(status: ShareStatus, now: () => string) {
  if (status === "revoked") return "revoked_at IS NOT NULL";
  if (status === "expired") return `revoked_at IS NULL AND expires_at <= ${now()}`;
  const live = `revoked_at IS NULL AND expires_at > ${now()}`;
  return status === "exhausted"
    ? `${live} AND max_downloads IS NOT NULL AND download_count >= max_downloads`
    : `${live} AND (max_downloads IS NULL OR download_count < max_downloads)`;
}

export interface ShareFilter {
  status?: ShareStatus;
  expiringBefore?: number;
  neverOpened?: boolean;
  recipient?: string;
  verdict?: DeliveryState;
  cursor?: string;
  limit: number;
}

/**
 * The list's query for either engine: `param` turns a value into its placeholder (SQLite's
 * `@name`, PostgreSQL's `$n`); `byEmail` is the recipient subquery's table (SQLite names its
 * index). Newest first (ids are time-ordered); every filter applies only when given.
 */
export function listSharesSql(
  workspaceId: string,
  now: number,
  f: ShareFilter,
  param: (name: string, value: unknown) => string,
  byEmail: string,
) {
  const where = [`workspace_id = ${param("workspaceId", workspaceId)}`];
  const at = () => param("now", now);
  if (f.status) where.push(statusWhere(f.status, at));
  if (f.expiringBefore !== undefined)
    where.push(
      statusWhere("active", at),
      `expires_at <= ${param("expiringBefore", f.expiringBefore)}`,
    );
  if (f.neverOpened) where.push("view_count = 0 AND download_count = 0");
  if (f.recipient)
    where.push(
      `id IN (SELECT share_id FROM ${byEmail} WHERE email = ${param("recipient", f.recipient)})`,
    );
  if (f.verdict) where.push(`verdict = ${param("verdict", f.verdict)}`);
  if (f.cursor) where.push(`id < ${param("cursor", f.cursor)}`);
  return `SELECT * FROM shares WHERE ${where.join(" AND ")} ORDER BY id DESC LIMIT ${param("limit", f.limit)}`;
}

export function listShareRows(db: Db, workspaceId: string, now: number, f: ShareFilter) {
  const params: Record<string, unknown> = {};
  const sql = listSharesSql(
    workspaceId,
    now,
    f,
    (name, value) => {
      params[name] = value;
      return `@${name}`;
    },
    "share_recipients INDEXED BY share_recipients_by_email",
  );
  return stmt<[Record<string, unknown>], ShareRow>(db, sql).all(params);
}

export const insertRecipient = (
  db: Db,
  r: Pick<RecipientRow, "id" | "share_id" | "email" | "created_at">,
) =>
  stmt(
    db,
    "INSERT INTO share_recipients (id, share_id, email, created_at) VALUES (@id, @share_id, @email, @created_at)",
  ).run(r);

export const insertLink = (
  db: Db,
  tokenHash: string,
  shareId: string,
  recipientId: string,
  now: number,
) =>
  stmt(
    db,
    "INSERT INTO share_links (token_hash, share_id, recipient_id, created_at) VALUES (?, ?, ?, ?)",
  ).run(tokenHash, shareId, recipientId, now);

export const recipientsOf = (db: Db, shareId: string) =>
  stmt<[string], RecipientRow>(
    db,
    "SELECT * FROM share_recipients WHERE share_id = ? ORDER BY created_at, email",
  ).all(shareId);

export const recipientById = (db: Db, id: string) =>
  stmt<[string], RecipientRow>(db, "SELECT * FROM share_recipients WHERE id = ?").get(id);

export const markRecipientSent = (db: Db, id: string, now: number) =>
  stmt(db, "UPDATE share_recipients SET sent_at = ? WHERE id = ?").run(now, id);

export function updateLimits(
  db: Db,
  id: string,
  c: { expires_at: number; max_downloads: number | null; now: number },
) {
  stmt(
    db,
    `UPDATE shares SET expires_at = @expires_at, max_downloads = @max_downloads, updated_at = @now,
       expired_at = CASE WHEN @expires_at > @now THEN NULL ELSE expired_at END
     WHERE id = @id`,
  ).run({ id, ...c });
}

export const insertChange = (db: Db, c: ChangeRow) =>
  stmt(
    db,
    `INSERT INTO share_changes (share_id, changed_at, expires_at, previous_expires_at, max_downloads, previous_max_downloads)
     VALUES (@share_id, @changed_at, @expires_at, @previous_expires_at, @max_downloads, @previous_max_downloads)`,
  ).run(c);

export const changesOf = (db: Db, shareId: string) =>
  stmt<[string], ChangeRow>(db, "SELECT * FROM share_changes WHERE share_id = ? ORDER BY id").all(
    shareId,
  );

/** True the first time only: a share is revoked once. */
export const markRevoked = (db: Db, id: string, now: number) =>
  stmt(
    db,
    "UPDATE shares SET revoked_at = ?, updated_at = ? WHERE id = ? AND revoked_at IS NULL",
  ).run(now, now, id).changes === 1;

/**
 * True only for the run that records this expiry: the share still expires at `expiresAt` (not
 * extended since), that time has come, it is not revoked and its expiry was not yet recorded.
 */
export const markExpired = (db: Db, id: string, expiresAt: number, now: number) =>
  stmt(
    db,
    `UPDATE shares SET expired_at = @now WHERE id = @id AND expires_at = @expiresAt AND expires_at <= @now
       AND expired_at IS NULL AND revoked_at IS NULL`,
  ).run({ id, expiresAt, now }).changes === 1;

export const insertComment = (db: Db, c: CommentRow) => {
  stmt(
    db,
    `INSERT INTO share_comments (id, share_id, parent_id, body, author_kind, author_name, author_email,
       created_at, anchor_path, anchor_time_ms, anchor_page)
     VALUES (@id, @share_id, @parent_id, @body, @author_kind, @author_name, @author_email,
       @created_at, @anchor_path, @anchor_time_ms, @anchor_page)`,
  ).run(c);
  stmt(db, "UPDATE shares SET comment_count = comment_count + 1 WHERE id = ?").run(c.share_id);
};

export const commentById = (db: Db, shareId: string, id: string) =>
  stmt<[string, string], CommentRow>(
    db,
    "SELECT * FROM share_comments WHERE share_id = ? AND id = ?",
  ).get(shareId, id);

/** Oldest first, after the comment `after`. */
export const commentsOf = (db: Db, shareId: string, after: string, limit: number) =>
  stmt<[string, string, number], CommentRow>(
    db,
    "SELECT * FROM share_comments WHERE share_id = ? AND id > ? ORDER BY id LIMIT ?",
  ).all(shareId, after, limit);
