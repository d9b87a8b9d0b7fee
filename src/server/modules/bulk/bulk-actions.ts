import type { AppDeps } from "@/server/deps";
import { ApiError } from "@/server/lib/api-error";
import { childrenChanged, type EntryRow, parentOf } from "@/server/modules/files/files.repository";
import { deleteTrashed, type TrashRow } from "@/server/modules/files/trash.repository";
import {
  countByParent,
  deleteEach,
  putBack,
  trashEach,
} from "@/server/modules/files/trash.service";
import { addJobTrash, type BulkFailure, type BulkJobRow, type BulkSample } from "./bulk.repository";

/*
 * What one batch of a bulk job does to its targets, inside the batch's transaction. Each adds
 * what it did to the job's sample, which names the paths in the job's event.
 */

const SAMPLE_KEPT = 100;

export function addToSample(sample: BulkSample, path: string, itemId?: string) {
  if (sample.paths.length >= SAMPLE_KEPT) return;
  sample.paths.push(path);
  if (itemId) sample.itemIds.push(itemId);
}

export function trashBatch(
  deps: AppDeps,
  row: BulkJobRow,
  targets: EntryRow[],
  sample: BulkSample,
  now: number,
) {
  const items = trashEach(deps.db, targets, deps.config.trashRetentionDays, now);
  addJobTrash(
    deps.db,
    row.id,
    items.map((i) => i.id),
  );
  for (const item of items) addToSample(sample, item.path, item.id);
  if (items[0] && sample.purgeAt === undefined) sample.purgeAt = items[0].purge_at;
  return items.length;
}

export function deleteBatch(deps: AppDeps, targets: EntryRow[], sample: BulkSample, now: number) {
  deleteEach(deps.db, targets, now);
  for (const entry of targets) addToSample(sample, entry.path);
  return targets.length;
}

/**
 * Each item as POST restore puts it back; one that cannot come back is a failure, not a stop.
 * Each parent folder is found once per batch and its counts settled once, with the batch's
 * totals, as `trashEach` does for a trash batch.
 */
export function restoreBatch(
  deps: AppDeps,
  row: BulkJobRow,
  targets: TrashRow[],
  sample: BulkSample,
  now: number,
) {
  const { db } = deps;
  const failures: BulkFailure[] = [];
  const parents = new Map<string, EntryRow>();
  const gained: { parent_id: number; is_file: 0 | 1 }[] = [];
  // A savepoint per item: a refused item leaves nothing of itself behind in the batch, and
  // a parent it made is remembered only once its savepoint has committed.
  const one = db.transaction((item: TrashRow) => {
    const parentPath = parentOf(item.path);
    // The files module's own folder maker: a restore recreates missing parents as POST restore does.
    const parent =
      parents.get(parentPath) ?? deps.files.ensureFolder(row.workspace_id, parentPath, now);
    return { parent, restored: putBack(db, item, parent) };
  });
  for (const item of targets) {
    try {
      const { parent, restored } = one(item);
      parents.set(parentOf(item.path), parent);
      gained.push({ parent_id: parent.id, is_file: item.is_file });
      sampleRestored(sample, item, restored.path);
    } catch (err) {
      failures.push(restoreFailure(item, err));
    }
  }
  for (const [folderId, n] of countByParent(gained))
    childrenChanged(db, folderId, n.folders, n.files, now);
  const done = targets.length - failures.length;
  return { done, failures };
}

/** A restored item in the sample, and among the renamed ones when its path was taken. */
export function sampleRestored(sample: BulkSample, item: TrashRow, path: string) {
  addToSample(sample, path, item.id);
  if (path === item.path) return;
  sample.renamed ??= [];
  if (sample.renamed.length < SAMPLE_KEPT) sample.renamed.push({ itemId: item.id, path });
}

/** An item that cannot come back (a refusal of POST restore's) as the job's failure; else throws. */
export function restoreFailure(item: TrashRow, err: unknown): BulkFailure {
  if (!(err instanceof ApiError)) throw err;
  const issue = (err.details?.issues as { code: string }[] | undefined)?.[0];
  return {
    target: item.id,
    code: issue?.code ?? err.code,
    message: `"${item.path}" cannot be restored: ${err.message}`,
  };
}

export function purgeBatch(deps: AppDeps, targets: TrashRow[], sample: BulkSample) {
  for (const item of targets) {
    deleteTrashed(deps.db, item.id);
    addToSample(sample, item.path, item.id);
  }
  return { done: targets.length, failures: [] as BulkFailure[] };
}
