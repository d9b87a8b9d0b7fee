import type { ConflictChoice, JobStatus } from "@/contract/operations";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

export interface OperationRow {
  id: string;
  workspace_id: string;
  kind: "move" | "copy";
  status: JobStatus;
  destination: string;
  overwrite: 0 | 1;
  files_total: number;
  files_done: number;
  bytes_total: number;
  bytes_done: number;
  error: string | null;
  reported: 0 | 1;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface OperationItemRow {
  operation_id: string;
  idx: number;
  path: string;
  is_file: 0 | 1;
  files: number;
  bytes: number;
  choice: ConflictChoice | null;
  status: "pending" | "done" | "skipped";
  destination_path: string | null;
  stage_state: "staging" | "staged" | "purging" | null;
  stage_name: string | null;
  stage_cursor: string | null;
}

export type NewOperation = Pick<
  OperationRow,
  "id" | "workspace_id" | "kind" | "destination" | "overwrite" | "files_total" | "bytes_total"
> & { created_at: number };

export function insertOperation(
  db: Db,
  op: NewOperation,
  items: Pick<OperationItemRow, "idx" | "path" | "is_file" | "files" | "bytes" | "choice">[],
) {
  stmt(
    db,
    `INSERT INTO file_operations (id, workspace_id, kind, status, destination, overwrite, files_total, bytes_total, created_at)
     VALUES (@id, @workspace_id, @kind, 'queued', @destination, @overwrite, @files_total, @bytes_total, @created_at)`,
  ).run(op);
  const insertItem = stmt(
    db,
    `INSERT INTO file_operation_items (operation_id, idx, path, is_file, files, bytes, choice)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const i of items)
    insertItem.run(op.id, i.idx, i.path, i.is_file, i.files, i.bytes, i.choice);
}

export const operationById = (db: Db, workspaceId: string, id: string) =>
  stmt<[string, string], OperationRow>(
    db,
    "SELECT * FROM file_operations WHERE id = ? AND workspace_id = ?",
  ).get(id, workspaceId);

/** For the worker, which knows the job only by its id. */
export const operationRow = (db: Db, id: string) =>
  stmt<[string], OperationRow>(db, "SELECT * FROM file_operations WHERE id = ?").get(id);

export const listOperationRows = (
  db: Db,
  workspaceId: string,
  activeOnly: boolean,
  limit: number,
) =>
  activeOnly
    ? stmt<[string, number], OperationRow>(
        db,
        `SELECT * FROM file_operations INDEXED BY file_operations_active
         WHERE workspace_id = ? AND status IN ('queued', 'running')
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      ).all(workspaceId, limit)
    : stmt<[string, number], OperationRow>(
        db,
        `SELECT * FROM file_operations WHERE workspace_id = ?
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      ).all(workspaceId, limit);

export const operationItems = (db: Db, id: string) =>
  stmt<[string], OperationItemRow>(
    db,
    "SELECT * FROM file_operation_items WHERE operation_id = ? ORDER BY idx",
  ).all(id);

export const pendingItems = (db: Db, id: string, limit: number) =>
  stmt<[string, number], OperationItemRow>(
    db,
    `SELECT * FROM file_operation_items WHERE operation_id = ? AND status = 'pending'
     ORDER BY idx LIMIT ?`,
  ).all(id, limit);

/** The first `limit` items done, in order, with where each went (for the closing event). */
export const doneItems = (db: Db, id: string, limit: number) =>
  stmt<[string, number], { path: string; destination_path: string }>(
    db,
    `SELECT path, destination_path FROM file_operation_items
     WHERE operation_id = ? AND status = 'done' ORDER BY idx LIMIT ?`,
  ).all(id, limit);

export const finishItem = (
  db: Db,
  id: string,
  idx: number,
  status: "done" | "skipped",
  destinationPath: string | null,
) =>
  stmt(
    db,
    "UPDATE file_operation_items SET status = ?, destination_path = ? WHERE operation_id = ? AND idx = ?",
  ).run(status, destinationPath, id, idx);

/** Progress of one batch; `*Drift` corrects the totals when an item held more or less than planned. */
export const addProgress = (
  db: Db,
  id: string,
  p: { files: number; bytes: number; filesDrift: number; bytesDrift: number },
) =>
  stmt(
    db,
    `UPDATE file_operations SET files_done = files_done + ?, bytes_done = bytes_done + ?,
       files_total = files_total + ?, bytes_total = bytes_total + ? WHERE id = ?`,
  ).run(p.files, p.bytes, p.filesDrift, p.bytesDrift, id);

export const markStarted = (db: Db, id: string, now: number) =>
  stmt(
    db,
    `UPDATE file_operations SET status = 'running', started_at = coalesce(started_at, ?)
     WHERE id = ? AND status IN ('queued', 'running')`,
  ).run(now, id).changes > 0;

/** Ends a job still queued or running; false when it had already ended. */
export const markEnded = (
  db: Db,
  id: string,
  status: "completed" | "failed" | "cancelled",
  error: string | null,
  now: number,
) =>
  stmt(
    db,
    `UPDATE file_operations SET status = ?, error = ?, finished_at = ?
     WHERE id = ? AND status IN ('queued', 'running')`,
  ).run(status, error, now, id).changes > 0;

export const markReported = (db: Db, id: string) =>
  stmt(db, "UPDATE file_operations SET reported = 1 WHERE id = ?").run(id);

export const setStage = (
  db: Db,
  id: string,
  idx: number,
  s: { state: OperationItemRow["stage_state"]; name: string | null; cursor: string | null },
) =>
  stmt(
    db,
    `UPDATE file_operation_items SET stage_state = ?, stage_name = ?, stage_cursor = ?
     WHERE operation_id = ? AND idx = ?`,
  ).run(s.state, s.name, s.cursor, id, idx);

/**
 * An item with hidden rows left to delete: a copy that will not be done (a cancel, a failure, a
 * skip), or the originals of a move done in steps.
 */
export const abandonedStage = (db: Db, id: string) =>
  stmt<[string], OperationItemRow>(
    db,
    `SELECT * FROM file_operation_items
     WHERE operation_id = ? AND (stage_state = 'purging' OR (stage_state IS NOT NULL AND status != 'done'))
     LIMIT 1`,
  ).get(id);
