import { notFound } from "@/server/lib/api-error";
import type { EntryRow } from "@/server/modules/files/files.repository";
import * as entries from "@/server/modules/files/files.repository";
import type { BatchRename, FilesService } from "@/server/modules/files/files.service";
import { sequenceOf } from "@/server/modules/files/sequences.service";
import {
  changingSteps,
  checkFresh,
  checkNested,
  conflictResult,
  planEntriesOf,
  planHash,
  RENAME_EXPANDED_MAX,
  type ReadPlan,
  type RenameBatchInput,
  resultOf,
  setsToRead,
  tooManyItems,
} from "./rename-batch";
import { compilePattern, planRenames } from "./rename-plan";

export { RENAME_EXPANDED_MAX, type RenameBatchInput } from "./rename-batch";

/**
 * The selected entries, and with `expandSequences` every frame of a numbered set one of them
 * is a frame of (files of the same folder, prefix, digit count and extension).
 */
function readEntries(files: FilesService, workspaceId: string, body: RenameBatchInput) {
  const rows = new Map<string, EntryRow>();
  const paths = [...new Set(body.paths)];
  for (const p of paths) {
    const row = entries.byPath(files.db, workspaceId, p);
    if (!row) throw notFound(`"${p}"`, { path: p });
    rows.set(p, row);
  }
  checkNested(paths);
  if (body.expandSequences) {
    for (const row of setsToRead(rows)) {
      for (const frame of sequenceOf(files.db, row, RENAME_EXPANDED_MAX)) {
        rows.set(frame.path, frame);
        if (rows.size > RENAME_EXPANDED_MAX) throw tooManyItems();
      }
    }
  }
  return rows;
}

/** The revisions of the rows' folders, read once each. */
function planIdOf(files: FilesService, body: RenameBatchInput, rows: Map<string, EntryRow>) {
  const revisions = new Map<number, number>();
  for (const r of rows.values())
    if (!revisions.has(r.parent_id!))
      revisions.set(r.parent_id!, entries.byId(files.db, r.parent_id!)!.revision);
  return planHash(body, rows, revisions);
}

function readPlan(files: FilesService, workspaceId: string, body: RenameBatchInput): ReadPlan {
  const rows = readEntries(files, workspaceId, body);
  const plan = planRenames(planEntriesOf(rows), body.pattern, body.overwrite, (p) => {
    const row = entries.byPath(files.db, workspaceId, p);
    return row && (row.is_file ? "file" : "folder");
  });
  return { ...plan, rows, planId: planIdOf(files, body, rows) };
}

/**
 * Plans a batch rename and, unless `dryRun`, applies it in one transaction. An apply with the
 * `planId` of a dry run is refused (`plan_stale`) when the plan it would run now differs; an
 * apply with conflicts changes nothing and says why in `failed`.
 */
export function renameBatch(files: FilesService, workspaceId: string, body: RenameBatchInput) {
  // A bad pattern is refused before anything is read.
  compilePattern(body.pattern);
  if (body.dryRun) {
    const plan = files.db.transaction(() => readPlan(files, workspaceId, body))();
    return resultOf(plan, true, [], null);
  }
  return files.renameMany(workspaceId, () => {
    const plan = readPlan(files, workspaceId, body);
    checkFresh(body, plan.planId);
    const refused = conflictResult(plan);
    if (refused) return { renames: [], result: refused };
    const applied = changingSteps(plan);
    const renames: BatchRename[] = applied.map((s) => ({
      entry: plan.rows.get(s.from)!,
      newName: s.newName,
      to: s.to,
      replaces: s.overwrite ? entries.byPath(files.db, workspaceId, s.to) : undefined,
    }));
    return { renames, result: resultOf(plan, false, applied, null) };
  });
}
