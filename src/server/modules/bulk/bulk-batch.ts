import type { AppDeps } from "@/server/deps";
import {
  byId,
  byPath,
  childrenAfter,
  countLive,
  type EntryRow,
  joinPath,
} from "@/server/modules/files/files.repository";
import {
  countTrashMatching,
  type TrashRow,
  trashItem,
  trashMatchingAfter,
} from "@/server/modules/files/trash.repository";
import { collectBlobs } from "@/server/modules/files/trash.service";
import {
  type BulkFailure,
  type BulkJobRow,
  type BulkSample,
  bulkJobById,
  countJobTrash,
  endBulkJob,
  isActive,
  jobTrashAfter,
  saveProgress,
} from "./bulk.repository";
import { deleteBatch, purgeBatch, restoreBatch, trashBatch } from "./bulk-actions";
import {
  type Batch,
  type BatchRunner,
  cursorAfter,
  endEvent,
  folderCursor,
  folderPosition,
  isJobFolder,
  listed,
  listedPage,
  match,
  missingEntry,
  missingItem,
  progressed,
  type StoredSelection,
} from "./bulk-selection";

/*
 * A bulk job's batches on SQLite; bulk-batch.pg.ts is PostgreSQL's, deciding alike through
 * bulk-selection.ts.
 */

/**
 * Runs the job's next batch in one transaction, which holds the batch's changes, the counters
 * and the cursor: counters are true after every batch and a restart resumes where the last
 * committed batch ended. Returns false once the job has ended (or `stillOurs` says another
 * runner has it), true while there is more to do.
 */
export function runBatch(
  deps: AppDeps,
  runner: BatchRunner,
  id: string,
  stillOurs: () => boolean = () => true,
): boolean {
  const { db } = deps;
  let collect = false;
  const more = db
    .transaction(() => {
      const now = deps.clock.now();
      const row = bulkJobById(db, id);
      if (!row || !isActive(row.status) || !stillOurs()) return false;
      const selection = JSON.parse(row.selection) as StoredSelection;
      const total = row.total ?? count(deps, runner, row, selection);
      const sample = JSON.parse(row.sample) as BulkSample;
      let done = 0;
      let failures: BulkFailure[];
      let cursor: string | null;
      if (row.action === "trash" || row.action === "delete") {
        const batch = entries(deps, runner, row, selection);
        if (row.action === "trash") done = trashBatch(deps, row, batch.targets, sample, now);
        else done = deleteBatch(deps, batch.targets, sample, now);
        failures = batch.failures;
        cursor = batch.cursor;
      } else {
        const batch = trashItems(deps, runner, row, selection);
        const outcome =
          row.action === "restore"
            ? restoreBatch(deps, row, batch.targets, sample, now)
            : purgeBatch(deps, batch.targets, sample);
        done = outcome.done;
        failures = [...batch.failures, ...outcome.failures];
        cursor = batch.cursor;
      }
      const next = progressed(row, total, { done, failures, cursor }, sample, now);
      saveProgress(db, next);
      if (next.cursor !== null) return true;
      recordEnd(deps, next);
      collect = row.action === "delete" || row.action === "purge";
      return false;
    })
    .immediate();
  // Blobs nobody references any more go now rather than at the next hourly purge. The files
  // module's blob store: the bytes on disk are its to delete.
  if (collect) collectBlobs(db, deps.files.blobs);
  return more;
}

/** Ends a job the runner gave up on (its last attempt threw); what was done stays done. */
export function failBulkJob(deps: AppDeps, id: string, message: string) {
  deps.db
    .transaction(() => {
      const row = bulkJobById(deps.db, id);
      if (row && endBulkJob(deps.db, id, "failed", deps.clock.now(), message)) recordEnd(deps, row);
    })
    .immediate();
}

/** The job's one event (bulk-selection.ts, endEvent), in the transaction that ends the job. */
export function recordEnd(deps: AppDeps, row: BulkJobRow) {
  const event = endEvent(row);
  if (event) deps.events.record(row.workspace_id, event.type, event.data);
}

function count(
  deps: AppDeps,
  runner: BatchRunner,
  row: BulkJobRow,
  selection: StoredSelection,
): number {
  switch (selection.kind) {
    case "paths":
    case "ids":
      return listed(runner, row, selection).length;
    case "undo":
      return countJobTrash(deps.db, selection.jobId);
    case "filter":
      return countTrashMatching(deps.db, match(row, selection));
    case "folder": {
      const folder = liveFolder(deps, row);
      if (!folder) return 0;
      const except = selection.except.map((n) => joinPath(folder.path, n));
      return (
        folder.folder_count +
        folder.file_count -
        countLive(deps.db, row.workspace_id, JSON.stringify(except))
      );
    }
  }
}

/** The folder of an "all except" selection, while it is live where the job found it. */
function liveFolder(deps: AppDeps, row: BulkJobRow): EntryRow | undefined {
  const folder = row.folder_id === null ? undefined : byId(deps.db, row.folder_id);
  return isJobFolder(row, folder) ? folder : undefined;
}

function entries(
  deps: AppDeps,
  runner: BatchRunner,
  row: BulkJobRow,
  selection: StoredSelection,
): Batch<EntryRow> {
  const n = runner.size;
  if (selection.kind === "folder") {
    const folder = liveFolder(deps, row);
    if (!folder) return { targets: [], failures: [], cursor: null };
    const except = JSON.stringify(selection.except);
    const targets = childrenAfter(deps.db, folder.id, folderPosition(row), except, n);
    return { targets, failures: [], cursor: folderCursor(targets, n) };
  }
  if (selection.kind !== "paths") throw new Error(`bad selection for ${row.action}`);
  const next = listedPage(runner, row, selection);
  const targets: EntryRow[] = [];
  const failures: BulkFailure[] = [];
  for (const p of next) {
    const entry = byPath(deps.db, row.workspace_id, p);
    if (entry) targets.push(entry);
    else failures.push(missingEntry(p));
  }
  return { targets, failures, cursor: cursorAfter(next, n) };
}

function trashItems(
  deps: AppDeps,
  runner: BatchRunner,
  row: BulkJobRow,
  selection: StoredSelection,
): Batch<TrashRow> {
  const n = runner.size;
  const after = row.cursor ?? "";
  if (selection.kind === "filter") {
    const targets = trashMatchingAfter(deps.db, match(row, selection), after, n);
    return {
      targets,
      failures: [],
      cursor: cursorAfter(
        targets.map((t) => t.id),
        n,
      ),
    };
  }
  let ids: string[];
  if (selection.kind === "undo") ids = jobTrashAfter(deps.db, selection.jobId, after, n);
  else if (selection.kind === "ids") ids = listedPage(runner, row, selection);
  else throw new Error(`bad selection for ${row.action}`);
  const targets: TrashRow[] = [];
  const failures: BulkFailure[] = [];
  for (const id of ids) {
    const item = trashItem(deps.db, row.workspace_id, id);
    if (item) targets.push(item);
    else failures.push(missingItem(id));
  }
  return { targets, failures, cursor: cursorAfter(ids, n) };
}
