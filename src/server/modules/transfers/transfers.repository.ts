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
