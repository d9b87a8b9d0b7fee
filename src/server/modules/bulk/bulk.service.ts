import type { BulkAction, BulkJob, CreateBulkJobBody } from "@/contract/operations";
import { normalizeName } from "@/contract/rules";
import type { AppDeps } from "@/server/deps";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { newId } from "@/server/lib/ids";
import {
  type BulkJobRow,
  bulkJob,
  bulkJobById,
  listBulkJobs as bulkJobRows,
  bulkJobView,
  endBulkJob,
  insertBulkJob,
  isActive,
  markUndone,
} from "./bulk.repository";
import { recordEnd } from "./bulk-batch";
import type { StoredSelection } from "./bulk-selection";

/*
 * Bulk trash, delete, restore and purge as durable jobs. A request only stores the job; the
 * runner counts the selection and works through it in batches (bulk-batch.ts). The job records
 * one event when it ends.
 */

/** The runner's job kind that runs every bulk job. */
export const BULK_JOB_KIND = "files.bulk";

function jobRow(deps: AppDeps, workspaceId: string, id: string): BulkJobRow {
  const row = bulkJob(deps.db, workspaceId, id);
  if (!row) throw notFound("Bulk job", { jobId: id });
  return row;
}

export const getBulkJob = (deps: AppDeps, workspaceId: string, id: string): BulkJob =>
  bulkJobView(jobRow(deps, workspaceId, id));

export const listBulkJobs = (
  deps: AppDeps,
  workspaceId: string,
  active: boolean,
  limit: number,
): BulkJob[] => bulkJobRows(deps.db, workspaceId, active, limit).map(bulkJobView);

/**
 * Stores the job and queues it; nothing of the selection is read here beyond the folder of
 * "all of this folder except", so the answer costs the same for ten items and for 100,000.
 */
export function createBulkJob(
  deps: AppDeps,
  workspaceId: string,
  body: CreateBulkJobBody,
): BulkJob {
  return deps.db
    .transaction(() => {
      const at = selectedFolder(body);
      // The files module resolves the folder: 404 or a file answered as every files route does.
      const folder = at === null ? null : deps.files.folder(workspaceId, at, "selection.folder");
      const selection = storedSelection(body, folder);
      return insertJob(deps, workspaceId, body.action, selection, folder?.id ?? null, null);
    })
    .immediate();
}

/** The folder path of an "all of this folder except" selection; null for any other. */
export function selectedFolder(body: CreateBulkJobBody): string | null {
  const sel = body.selection;
  return "paths" in sel || "itemIds" in sel || "filter" in sel ? null : (sel.folder ?? "");
}

/** The selection as the job keeps it; `folder` is the resolved `selectedFolder`. */
export function storedSelection(
  body: CreateBulkJobBody,
  folder: { path: string } | null,
): StoredSelection {
  const sel = body.selection;
  if ("paths" in sel) return { kind: "paths", paths: sel.paths };
  if ("itemIds" in sel) return { kind: "ids", ids: sel.itemIds };
  if ("filter" in sel) return { kind: "filter", filter: sel.filter, except: sel.allExcept };
  return { kind: "folder", folder: folder!.path, except: sel.allExcept.map(normalizeName) };
}

/** The runner's job that works a bulk job through, as either engine queues it. */
export const bulkRunnerJob = (id: string) =>
  [BULK_JOB_KIND, { bulkJobId: id }, { uniqueKey: `bulk:${id}` }] as const;

function insertJob(
  deps: AppDeps,
  workspaceId: string,
  action: BulkAction,
  selection: StoredSelection,
  folderId: number | null,
  undoOf: string | null,
): BulkJob {
  const now = deps.clock.now();
  const id = newId(now);
  insertBulkJob(deps.db, {
    id,
    workspace_id: workspaceId,
    action,
    selection: JSON.stringify(selection),
    folder_id: folderId,
    undo_of: undoOf,
    created_at: now,
  });
  deps.jobs.enqueue(...bulkRunnerJob(id));
  return bulkJobView(bulkJobById(deps.db, id)!);
}

/**
 * Stops a queued or running job: the batch in progress (if any) commits first, since both
 * take the write lock, and no batch starts after. What was done stays done, and the job's
 * event names it. A cancelled job answers a second cancel as it is.
 */
export function cancelBulkJob(deps: AppDeps, workspaceId: string, id: string): BulkJob {
  return deps.db
    .transaction(() => {
      const row = jobRow(deps, workspaceId, id);
      if (!mustCancel(row)) return bulkJobView(row);
      endBulkJob(deps.db, id, "cancelled", deps.clock.now());
      recordEnd(deps, row);
      return bulkJobView(jobRow(deps, workspaceId, id));
    })
    .immediate();
}

/** Whether a cancel has anything to end: a cancelled job stays as it is, an ended one refuses. */
export function mustCancel(row: BulkJobRow): boolean {
  if (row.status === "cancelled") return false;
  if (!isActive(row.status))
    throw validationFailed("jobId", `The job is already ${row.status}`, "not_cancellable");
  return true;
}

/** Refuses an undo of a job that is not `undoable`, saying why. */
export function checkUndoable(row: BulkJobRow) {
  if (bulkJobView(row).undoable) return;
  const why =
    row.undone_by !== null
      ? `The job was already undone by ${row.undone_by}`
      : row.action !== "trash"
        ? "Only a trash job can be undone"
        : isActive(row.status)
          ? "The job is still running: cancel it first, or wait for it"
          : "The job trashed nothing";
  throw validationFailed("jobId", why, "not_undoable");
}

/** A restore job of exactly the trash items a finished trash job made; once per job. */
export function undoBulkJob(deps: AppDeps, workspaceId: string, id: string): BulkJob {
  return deps.db
    .transaction(() => {
      checkUndoable(jobRow(deps, workspaceId, id));
      const job = insertJob(deps, workspaceId, "restore", { kind: "undo", jobId: id }, null, id);
      markUndone(deps.db, id, job.id);
      return job;
    })
    .immediate();
}
