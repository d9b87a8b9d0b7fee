import type { BulkAction, BulkJob, JobStatus } from "@/contract/operations";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { toIso, toIsoOrNull } from "@/server/lib/clock";

export interface BulkFailure {
  target: string;
  code: string;
  message: string;
}

/** What the job's one event names: the first 100 items it acted on. */
export interface BulkSample {
  paths: string[];
  itemIds: string[];
  purgeAt?: number;
  /** Restored items that came back under another name (their path was taken); the first 100. */
  renamed?: { itemId: string; path: string }[];
}

export interface BulkJobRow {
  id: string;
  workspace_id: string;
  action: BulkAction;
  status: JobStatus;
  /** JSON of the stored selection (see bulk-batch.ts, StoredSelection). */
  selection: string;
  /** The folder of an "all of this folder except" selection. */
  folder_id: number | null;
  total: number | null;
  done: number;
  failed: number;
  failures: string;
  sample: string;
  cursor: string | null;
  undo_of: string | null;
  undone_by: string | null;
  error: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export const isActive = (status: JobStatus) => status === "queued" || status === "running";

export function bulkJobView(r: BulkJobRow): BulkJob {
  return {
    id: r.id,
    kind: "bulk",
    action: r.action,
    status: r.status,
    total: r.total,
    done: r.done,
    failed: r.failed,
    failures: JSON.parse(r.failures) as BulkFailure[],
    undoable:
      r.action === "trash" &&
      (r.status === "completed" || r.status === "cancelled") &&
      r.undone_by === null &&
      r.done > 0,
    undoOf: r.undo_of,
    undoneBy: r.undone_by,
    ...(r.action === "restore"
      ? { renamed: (JSON.parse(r.sample) as BulkSample).renamed ?? [] }
      : {}),
    error: r.error,
    createdAt: toIso(r.created_at),
    startedAt: toIsoOrNull(r.started_at),
    finishedAt: toIsoOrNull(r.finished_at),
  };
}

export const insertBulkJob = (
  db: Db,
  r: Pick<
    BulkJobRow,
    "id" | "workspace_id" | "action" | "selection" | "folder_id" | "undo_of" | "created_at"
  >,
) =>
  stmt(
    db,
    `INSERT INTO bulk_jobs (id, workspace_id, action, status, selection, folder_id, undo_of, created_at)
     VALUES (@id, @workspace_id, @action, 'queued', @selection, @folder_id, @undo_of, @created_at)`,
  ).run(r);

export const bulkJob = (db: Db, workspaceId: string, id: string) =>
  stmt<[string, string], BulkJobRow>(
    db,
    "SELECT * FROM bulk_jobs WHERE id = ? AND workspace_id = ?",
  ).get(id, workspaceId);

export const bulkJobById = (db: Db, id: string) =>
  stmt<[string], BulkJobRow>(db, "SELECT * FROM bulk_jobs WHERE id = ?").get(id);

/** Newest first; `active` keeps the queued and running ones. */
export const listBulkJobs = (db: Db, workspaceId: string, active: boolean, limit: number) =>
  stmt<[string, number, number], BulkJobRow>(
    db,
    `SELECT * FROM bulk_jobs WHERE workspace_id = ? AND (? = 0 OR status IN ('queued', 'running'))
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  ).all(workspaceId, active ? 1 : 0, limit);

/** A batch's outcome: written in the transaction that did the batch's work. */
export const saveProgress = (
  db: Db,
  r: Pick<
    BulkJobRow,
    | "id"
    | "status"
    | "total"
    | "done"
    | "failed"
    | "failures"
    | "sample"
    | "cursor"
    | "started_at"
    | "finished_at"
  >,
) =>
  stmt(
    db,
    `UPDATE bulk_jobs SET status = @status, total = @total, done = @done, failed = @failed,
       failures = @failures, sample = @sample, cursor = @cursor, started_at = @started_at,
       finished_at = @finished_at
     WHERE id = @id`,
  ).run(r);

export const endBulkJob = (
  db: Db,
  id: string,
  status: JobStatus,
  now: number,
  error: string | null = null,
) =>
  stmt(
    db,
    `UPDATE bulk_jobs SET status = ?, finished_at = ?, error = ?
     WHERE id = ? AND status IN ('queued', 'running')`,
  ).run(status, now, error, id).changes > 0;

export const markUndone = (db: Db, id: string, undoneBy: string) =>
  stmt(db, "UPDATE bulk_jobs SET undone_by = ? WHERE id = ?").run(undoneBy, id);

const insertJobTrashStmt = (db: Db) =>
  stmt(db, "INSERT OR IGNORE INTO bulk_job_trash (job_id, trash_id) VALUES (?, ?)");

/** Remembers the trash items a trash job made: its undo restores exactly these. */
export function addJobTrash(db: Db, jobId: string, trashIds: string[]) {
  const insert = insertJobTrashStmt(db);
  for (const id of trashIds) insert.run(jobId, id);
}

export const countJobTrash = (db: Db, jobId: string) =>
  stmt<[string], number>(db, "SELECT count(*) FROM bulk_job_trash WHERE job_id = ?")
    .pluck()
    .get(jobId)!;

export const jobTrashAfter = (db: Db, jobId: string, after: string, limit: number) =>
  stmt<[string, string, number], string>(
    db,
    "SELECT trash_id FROM bulk_job_trash WHERE job_id = ? AND trash_id > ? ORDER BY trash_id LIMIT ?",
  )
    .pluck()
    .all(jobId, after, limit);

/**
 * Whether the runner's lease on the job is still `owner`'s: a runner that stopped (or lost the
 * lease to another process) must not run another batch beside the one that took over. Reads the
 * job runner's `jobs` table here: workers/jobs.repository has no read of a lease to call.
 */
export const leaseHeld = (db: Db, runnerJobId: string, owner: string) =>
  stmt<[string, string], number>(
    db,
    "SELECT count(*) FROM jobs WHERE id = ? AND lease_owner = ? AND status = 'running'",
  )
    .pluck()
    .get(runnerJobId, owner)! > 0;
