import type { PortalStatus, PortalUploadStatus, SpecCheckStatus } from "@/contract/portal-rules";
import type { TransferState } from "@/contract/transfers";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

/** A `portals` row: fields, rules, spec and invites are JSON text. */
export interface PortalRow {
  id: string;
  workspace_id: string;
  member_id: string | null;
  key_id: string | null;
  slug: string;
  title: string;
  message: string | null;
  target_path: string;
  require_email: number;
  password_hash: string | null;
  max_bytes_per_upload: number | null;
  expires_at: number | null;
  notify_on_upload: number;
  project_id: string | null;
  due_at: number | null;
  fields: string;
  rules: string;
  spec: string | null;
  approved_path: string | null;
  notify_sender: string;
  invite_emails: string;
  invite_phones: string;
  status: PortalStatus;
  upload_count: number;
  bytes_received: number;
  last_upload_at: number | null;
  revoked_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A `portal_uploads` row; `fields`, `files_shown` and `spec_result` are JSON text. */
export interface UploadRow {
  id: string;
  portal_id: string;
  workspace_id: string;
  transfer_id: string | null;
  sender_email: string | null;
  sender_name: string | null;
  message: string | null;
  fields: string;
  folder_path: string;
  file_count: number | null;
  bytes_total: number | null;
  files_shown: string;
  status: PortalUploadStatus;
  spec_status: SpecCheckStatus;
  spec_result: string | null;
  spec_checked_at: number | null;
  review_note: string | null;
  note_to_sender: string | null;
  reviewed_by: string | null;
  reviewed_at: number | null;
  created_at: number;
  completed_at: number | null;
  decision_mail_id: string | null;
  /** Where an approval moved its folder from, and the move job: what an undo puts back. */
  moved_from: string | null;
  move_job_id: string | null;
}

/**
 * An upload as the queue reads it: the portal's title, the bytes the node committed so far and
 * the reviewer, in the one query (a page of the queue is hundreds of rows).
 */
export interface UploadView extends UploadRow {
  portal_title: string;
  bytes_committed: number | null;
  reviewer_name: string | null;
  reviewer_email: string | null;
}

export const insertPortal = (
  db: Db,
  p: Omit<
    PortalRow,
    "upload_count" | "bytes_received" | "last_upload_at" | "revoked_at" | "updated_at"
  >,
) =>
  stmt(
    db,
    `INSERT INTO portals (id, workspace_id, member_id, key_id, slug, title, message, target_path,
       require_email, password_hash, max_bytes_per_upload, expires_at, notify_on_upload,
       project_id, due_at, fields, rules, spec, approved_path, notify_sender, invite_emails,
       invite_phones, status, created_at, updated_at)
     VALUES (@id, @workspace_id, @member_id, @key_id, @slug, @title, @message, @target_path,
       @require_email, @password_hash, @max_bytes_per_upload, @expires_at, @notify_on_upload,
       @project_id, @due_at, @fields, @rules, @spec, @approved_path, @notify_sender, @invite_emails,
       @invite_phones, @status, @created_at, @created_at)`,
  ).run(p);

export const portalById = (db: Db, workspaceId: string, id: string) =>
  stmt<[string, string], PortalRow>(
    db,
    "SELECT * FROM portals WHERE id = ? AND workspace_id = ?",
  ).get(id, workspaceId);

export const portalBySlug = (db: Db, slug: string) =>
  stmt<[string], PortalRow>(db, "SELECT * FROM portals WHERE slug = ?").get(slug);

export const portalRow = (db: Db, id: string) =>
  stmt<[string], PortalRow>(db, "SELECT * FROM portals WHERE id = ?").get(id);

/** Every portal of the workspace, newest first, with its uploads waiting for review. */
export const listPortalRows = (db: Db, workspaceId: string, limit: number) =>
  stmt<[string, number], PortalRow & { awaiting: number }>(
    db,
    `SELECT p.*, (SELECT count(*) FROM portal_uploads u
                  WHERE u.portal_id = p.id AND u.status IN ('received', 'pending')) AS awaiting
     FROM portals p WHERE p.workspace_id = ? ORDER BY p.id DESC LIMIT ?`,
  ).all(workspaceId, limit);

export const awaitingCount = (db: Db, portalId: string) =>
  stmt<[string], number>(
    db,
    "SELECT count(*) FROM portal_uploads WHERE portal_id = ? AND status IN ('received', 'pending')",
  )
    .pluck()
    .get(portalId)!;

/** The members PATCH may change; each given one replaces the stored value. */
export type PortalChanges = Partial<
  Pick<
    PortalRow,
    | "project_id"
    | "title"
    | "message"
    | "status"
    | "require_email"
    | "password_hash"
    | "max_bytes_per_upload"
    | "expires_at"
    | "notify_on_upload"
    | "due_at"
    | "fields"
    | "rules"
    | "spec"
    | "approved_path"
    | "notify_sender"
  >
>;

export function updatePortalRow(db: Db, id: string, changes: PortalChanges, now: number) {
  const columns = Object.keys(changes);
  const sets = [...columns.map((c) => `${c} = @${c}`), "updated_at = @now"];
  // One text per combination of columns, each prepared once (db/statements).
  stmt(db, `UPDATE portals SET ${sets.join(", ")} WHERE id = @id`).run({ ...changes, id, now });
}

export const markPortalRevoked = (db: Db, id: string, now: number) =>
  stmt(
    db,
    `UPDATE portals SET status = 'revoked', revoked_at = ?, updated_at = ?
     WHERE id = ? AND status != 'revoked'`,
  ).run(now, now, id).changes > 0;

export const countLanded = (db: Db, id: string, bytes: number, now: number) =>
  stmt(
    db,
    `UPDATE portals SET upload_count = upload_count + 1, bytes_received = bytes_received + ?,
       last_upload_at = ? WHERE id = ?`,
  ).run(bytes, now, id);

/* Uploads. */

export const insertUpload = (
  db: Db,
  u: Pick<
    UploadRow,
    | "id"
    | "portal_id"
    | "workspace_id"
    | "transfer_id"
    | "sender_email"
    | "sender_name"
    | "message"
    | "fields"
    | "folder_path"
    | "file_count"
    | "bytes_total"
    | "spec_status"
    | "created_at"
  >,
) =>
  stmt(
    db,
    `INSERT INTO portal_uploads (id, portal_id, workspace_id, transfer_id, sender_email,
       sender_name, message, fields, folder_path, file_count, bytes_total, status, spec_status,
       created_at)
     VALUES (@id, @portal_id, @workspace_id, @transfer_id, @sender_email, @sender_name, @message,
       @fields, @folder_path, @file_count, @bytes_total, 'uploading', @spec_status, @created_at)`,
  ).run(u);

// Reads the transfers module's table (the bytes the node committed) and the members one (the
// reviewer) in the same query: a page of the queue is hundreds of rows, and a look-up per row in
// each module would be hundreds more queries.
export const UPLOAD_VIEW = `SELECT u.*, p.title AS portal_title, t.bytes_committed,
    m.name AS reviewer_name, m.email AS reviewer_email
  FROM portal_uploads u JOIN portals p ON p.id = u.portal_id
  LEFT JOIN transfers t ON t.id = u.transfer_id
  LEFT JOIN members m ON m.id = u.reviewed_by`;

export const uploadById = (db: Db, workspaceId: string, id: string) =>
  stmt<[string, string], UploadView>(
    db,
    `${UPLOAD_VIEW} WHERE u.id = ? AND u.workspace_id = ?`,
  ).get(id, workspaceId);

export const uploadRow = (db: Db, id: string) =>
  stmt<[string], UploadRow>(db, "SELECT * FROM portal_uploads WHERE id = ?").get(id);

export const uploadsOfPortal = (db: Db, portalId: string, limit: number) =>
  stmt<[string, number], UploadView>(
    db,
    `${UPLOAD_VIEW} WHERE u.portal_id = ? ORDER BY u.id DESC LIMIT ?`,
  ).all(portalId, limit);

export interface UploadFilter {
  portalId?: string;
  /** One status, or several (the queue's "awaiting"). */
  statuses?: readonly PortalUploadStatus[];
  /** Text in the sender's name or address or the portal's title (any case, taken literally). */
  q?: string;
}

function filterSql(workspaceId: string, f: UploadFilter) {
  const where = ["u.workspace_id = @workspaceId"];
  const params: Record<string, unknown> = { workspaceId };
  if (f.portalId) {
    where.push("u.portal_id = @portalId");
    params.portalId = f.portalId;
  }
  if (f.q) {
    // instr, as the files search does: no LIKE wildcards to escape. The portal's title is read
    // by id from the portals table, so the count needs no join.
    where.push(`(instr(lower(coalesce(u.sender_name, '')), lower(@q)) > 0
      OR instr(lower(coalesce(u.sender_email, '')), lower(@q)) > 0
      OR u.portal_id IN (SELECT id FROM portals
        WHERE workspace_id = @workspaceId AND instr(lower(title), lower(@q)) > 0))`);
    params.q = f.q;
  }
  if (f.statuses) {
    const names = f.statuses.map((_, i) => `@s${i}`);
    where.push(`u.status IN (${names.join(", ")})`);
    f.statuses.forEach((s, i) => {
      params[`s${i}`] = s;
    });
  }
  return { where, params };
}

/** The review queue: newest first, a page after `cursor`. */
export function listUploadRows(
  db: Db,
  workspaceId: string,
  f: UploadFilter & { cursor?: string; limit: number },
) {
  const { where, params } = filterSql(workspaceId, f);
  if (f.cursor) {
    where.push("u.id < @cursor");
    params.cursor = f.cursor;
  }
  params.limit = f.limit;
  return stmt<[Record<string, unknown>], UploadView>(
    db,
    `${UPLOAD_VIEW} WHERE ${where.join(" AND ")} ORDER BY u.id DESC LIMIT @limit`,
  ).all(params);
}

export function countUploads(db: Db, workspaceId: string, f: UploadFilter) {
  const { where, params } = filterSql(workspaceId, f);
  return stmt<[Record<string, unknown>], number>(
    db,
    `SELECT count(*) FROM portal_uploads u WHERE ${where.join(" AND ")}`,
  )
    .pluck()
    .get(params)!;
}

/** The upload landed: every file committed. Only from `uploading`, so it happens once. */
export const markReceived = (
  db: Db,
  id: string,
  a: {
    fileCount: number;
    bytes: number;
    filesShown: string;
    specStatus: SpecCheckStatus;
    now: number;
  },
) =>
  stmt(
    db,
    `UPDATE portal_uploads SET status = 'received', file_count = @fileCount, bytes_total = @bytes,
       files_shown = @filesShown, spec_status = @specStatus, completed_at = @now
     WHERE id = @id AND status = 'uploading'`,
  ).run({ id, ...a }).changes > 0;

export const markUploadFailed = (db: Db, id: string) =>
  stmt(db, "UPDATE portal_uploads SET status = 'failed' WHERE id = ? AND status = 'uploading'").run(
    id,
  ).changes > 0;

/**
 * A portal's uploads still arriving, with their transfer's state and what the node committed:
 * the transfers table is read in this join because revoking cancels each of those transfers with
 * exactly these counters, in the revoking transaction.
 */
export const uploadsInFlight = (db: Db, portalId: string) =>
  stmt(
    db,
    `SELECT u.id, u.transfer_id, t.status AS transfer_status, t.files_committed, t.bytes_committed
     FROM portal_uploads u JOIN transfers t ON t.id = u.transfer_id
     WHERE u.portal_id = ? AND u.status = 'uploading'`,
  ).all(portalId) as {
    id: string;
    transfer_id: string;
    transfer_status: TransferState;
    files_committed: number;
    bytes_committed: number;
  }[];

/**
 * Uploads whose transfer ended without landing (failed or cancelled) or has been idle past the
 * resume window, when its token stops working: they will never land. The transfers table is
 * read inside the one UPDATE so that no upload lands between the read and the write.
 */
export const failAbandoned = (db: Db, idleSince: number) =>
  stmt(
    db,
    `UPDATE portal_uploads SET status = 'failed'
     WHERE status = 'uploading' AND transfer_id IN (
       SELECT id FROM transfers WHERE client = 'portal' AND (
         status IN ('failed', 'cancelled') OR coalesce(last_activity_at, created_at) < ?))`,
  ).run(idleSince).changes;

/**
 * The admins of a workspace: who hears of new uploads when a portal asks for it. Read from the
 * members table here: the members module has no query for a role's addresses.
 */
export const adminEmails = (db: Db, workspaceId: string) =>
  stmt<[string], string>(
    db,
    "SELECT email FROM members WHERE workspace_id = ? AND role = 'admin' AND removed_at IS NULL",
  )
    .pluck()
    .all(workspaceId);
