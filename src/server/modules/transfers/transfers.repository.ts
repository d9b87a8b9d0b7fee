import type { TransferState } from "@/contract/transfers";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

/** A `transfers` row (migration 0007). Times are epoch milliseconds. */
export interface TransferRow {
  id: string;
  workspace_id: string;
  key_id: string | null;
  direction: "send" | "receive";
  client: string;
  engine: string;
  status: TransferState;
  streams: number;
  priority: "normal" | "deadline" | "background";
  usage_id: string;
  files_total: number | null;
  files_done: number;
  bytes_total: number | null;
  bytes_done: number;
  rate_kbps: number | null;
  avg_rate_kbps: number | null;
  error_code: string | null;
  error_message: string | null;
  source_root: string;
  destination_root: string;
  file_count: number | null;
  total_bytes: number | null;
  growing_file_wait: number | null;
  deliver_to: string;
  protection_salt: string | null;
  options: string;
  device_id: string | null;
  share_id: string | null;
  portal_id: string | null;
  paths_count: number;
  token_hash: string;
  /** The data node its spec and token name (migration 0019); null before. */
  node: string | null;
  token_expires_at: number;
  token_used_at: number | null;
  last_activity_at: number | null;
  files_committed: number;
  bytes_committed: number;
  bytes_served: number;
  reported: 0 | 1;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface TransferPathRow {
  transfer_id: string;
  idx: number;
  source: string;
  destination: string;
}

export const byTokenHash = (db: Db, tokenHash: string) =>
  stmt<[string], TransferRow>(db, "SELECT * FROM transfers WHERE token_hash = ?").get(tokenHash);

export const byId = (db: Db, workspaceId: string, id: string) =>
  stmt<[string, string], TransferRow>(
    db,
    "SELECT * FROM transfers WHERE workspace_id = ? AND id = ?",
  ).get(workspaceId, id);

/** For the worker and the node, which know a transfer by its id only. */
export const transferRow = (db: Db, id: string) =>
  stmt<[string], TransferRow>(db, "SELECT * FROM transfers WHERE id = ?").get(id);

export const pathsOf = (db: Db, transferId: string) =>
  stmt<[string], TransferPathRow>(
    db,
    "SELECT * FROM transfer_paths WHERE transfer_id = ? ORDER BY idx",
  ).all(transferId);

/** The node saw the token: the start window no longer applies (see transfer-access). */
export const markTokenUsed = (db: Db, id: string, now: number) =>
  stmt(
    db,
    "UPDATE transfers SET token_used_at = coalesce(token_used_at, @now), last_activity_at = @now WHERE id = @id",
  ).run({ id, now });

export type NewTransfer = Pick<
  TransferRow,
  | "id"
  | "workspace_id"
  | "key_id"
  | "direction"
  | "client"
  | "engine"
  | "streams"
  | "priority"
  | "usage_id"
  | "files_total"
  | "bytes_total"
  | "source_root"
  | "destination_root"
  | "file_count"
  | "total_bytes"
  | "growing_file_wait"
  | "deliver_to"
  | "protection_salt"
  | "options"
  | "device_id"
  | "share_id"
  | "portal_id"
  | "paths_count"
  | "token_hash"
  | "node"
  | "token_expires_at"
  | "created_at"
>;

/** The row and its path items; the caller holds the transaction that makes them one write. */
export function insertTransfer(
  db: Db,
  row: NewTransfer,
  paths: { source: string; destination: string }[],
) {
  stmt(
    db,
    `INSERT INTO transfers (id, workspace_id, key_id, direction, client, engine, status, streams, priority,
       usage_id, files_total, bytes_total, source_root, destination_root, file_count, total_bytes,
       growing_file_wait, deliver_to, protection_salt, options, device_id, share_id, portal_id,
       paths_count, token_hash, node, token_expires_at, created_at, updated_at)
     VALUES (@id, @workspace_id, @key_id, @direction, @client, @engine, 'queued', @streams, @priority,
       @usage_id, @files_total, @bytes_total, @source_root, @destination_root, @file_count, @total_bytes,
       @growing_file_wait, @deliver_to, @protection_salt, @options, @device_id, @share_id, @portal_id,
       @paths_count, @token_hash, @node, @token_expires_at, @created_at, @created_at)`,
  ).run(row);
  const insertPath = stmt(
    db,
    "INSERT INTO transfer_paths (transfer_id, idx, source, destination) VALUES (?, ?, ?, ?)",
  );
  for (const [idx, p] of paths.entries()) insertPath.run(row.id, idx, p.source, p.destination);
}

/**
 * Each data node's live transfers: not ended, and either within their start window unused or
 * active at their node since `activeSince`. What the service weighs nodes by (start.service).
 */
export const liveTransfersByNode = (db: Db, now: number, activeSince: number) =>
  stmt<[{ now: number; activeSince: number }], { node: string; live: number }>(
    db,
    `SELECT node, count(*) AS live FROM transfers INDEXED BY transfers_node_live
     WHERE node IS NOT NULL AND status IN ('queued', 'running', 'paused')
       AND CASE WHEN token_used_at IS NULL THEN token_expires_at >= @now
         ELSE last_activity_at >= @activeSince END
     GROUP BY node`,
  ).all({ now, activeSince });

/** Newest first; each filter applies only when given. */
export function listTransferRows(
  db: Db,
  workspaceId: string,
  q: { status?: TransferState; direction?: "send" | "receive"; active?: boolean; limit: number },
) {
  const where = ["workspace_id = @workspaceId"];
  const params: Record<string, unknown> = { workspaceId, limit: q.limit };
  if (q.status) {
    where.push("status = @status");
    params.status = q.status;
  }
  if (q.direction) {
    where.push("direction = @direction");
    params.direction = q.direction;
  }
  if (q.active) where.push("status IN ('queued', 'running', 'paused')");
  return stmt<[Record<string, unknown>], TransferRow>(
    db,
    `SELECT * FROM transfers WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT @limit`,
  ).all(params);
}

export const firstPaths = (db: Db, transferId: string, limit: number) =>
  stmt<[string, number], TransferPathRow>(
    db,
    "SELECT * FROM transfer_paths WHERE transfer_id = ? ORDER BY idx LIMIT ?",
  ).all(transferId, limit);

/** What PATCH writes: the engine's report with the service's own fields. */
export type TransferProgress = Pick<
  TransferRow,
  | "status"
  | "files_done"
  | "bytes_done"
  | "files_total"
  | "bytes_total"
  | "rate_kbps"
  | "avg_rate_kbps"
  | "error_code"
  | "error_message"
  | "started_at"
  | "finished_at"
  | "updated_at"
>;

export const updateProgress = (db: Db, id: string, p: TransferProgress) =>
  stmt(
    db,
    `UPDATE transfers SET status = @status, files_done = @files_done, bytes_done = @bytes_done,
       files_total = @files_total, bytes_total = @bytes_total, rate_kbps = @rate_kbps,
       avg_rate_kbps = @avg_rate_kbps, error_code = @error_code, error_message = @error_message,
       started_at = @started_at, finished_at = @finished_at, updated_at = @updated_at
     WHERE id = @id`,
  ).run({ id, ...p });

/** True the first time only: a terminal transfer's event is recorded once. */
export const markReported = (db: Db, id: string) =>
  stmt(db, "UPDATE transfers SET reported = 1 WHERE id = ? AND reported = 0").run(id).changes === 1;

export const uploadsInFlight = (db: Db, transferId: string) =>
  stmt<[string], number>(
    db,
    "SELECT count(*) FROM transfer_uploads WHERE transfer_id = ? AND status = 'uploading'",
  )
    .pluck()
    .get(transferId)!;

/** A send that ended without completing: the node's cleanup job removes the staged bytes. */
export const cancelUploads = (db: Db, transferId: string, now: number) =>
  stmt(
    db,
    "UPDATE transfer_uploads SET status = 'cancelled', updated_at = ? WHERE transfer_id = ? AND status = 'uploading'",
  ).run(now, transferId);

/**
 * The node verified and committed one file of a send (called inside its commit transaction):
 * what `completed` is checked against.
 */
export const recordCommittedFile = (db: Db, transferId: string, bytes: number) =>
  stmt(
    db,
    "UPDATE transfers SET files_committed = files_committed + 1, bytes_committed = bytes_committed + ? WHERE id = ?",
  ).run(bytes, transferId);

/** The workspace paths of a send's committed files, in commit order, after `afterRowid`. */
export const committedPaths = (db: Db, transferId: string, afterRowid: number, limit: number) =>
  stmt<[string, number, number], { rowid: number; path: string }>(
    db,
    `SELECT rowid, path FROM transfer_uploads
     WHERE transfer_id = ? AND status = 'committed' AND rowid > ? ORDER BY rowid LIMIT ?`,
  ).all(transferId, afterRowid, limit);

/** Bytes recorded against a usage id (the node writes usage_records as it moves bytes). */
export const usageBytes = (db: Db, usageId: string) =>
  stmt<[string], number>(db, "SELECT coalesce(sum(bytes), 0) FROM usage_records WHERE usage_id = ?")
    .pluck()
    .get(usageId)!;
