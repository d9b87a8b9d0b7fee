import { createHash } from "node:crypto";
import type { z } from "zod";
import type { renameBatchBodySchema } from "@/contract/operations";
import { sequenceKey } from "@/contract/rules";
import { notFound, validationFailed } from "@/server/lib/api-error";
import type { EntryRow } from "@/server/modules/files/files.repository";
import * as entries from "@/server/modules/files/files.repository";
import type { BatchRename, FilesService } from "@/server/modules/files/files.service";
import { sequenceOf } from "@/server/modules/files/sequences.service";
import {
  compilePattern,
  type PlanEntry,
  planRenames,
  type RenamePlan,
  type RenameStep,
} from "./rename-plan";

/**
 * Most items a plan covers once numbered sets are expanded: a whole set of frames is one
 * selection, so this is well above the 200 paths a request lists, and bounds one transaction.
 */
export const RENAME_EXPANDED_MAX = 10_000;

export type RenameBatchInput = z.output<typeof renameBatchBodySchema>;

/** The plan as the tree stands, with the rows it was made from and its id. */
interface ReadPlan extends RenamePlan {
  rows: Map<string, EntryRow>;
  planId: string;
}

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
  // A folder renamed with something inside it would move that thing's path under the plan.
  const sorted = [...paths].sort();
  for (const p of sorted) {
    const outer = sorted.find((q) => p.startsWith(`${q}/`));
    if (outer)
      throw validationFailed(
        "paths",
        `"${p}" is inside "${outer}", which is renamed in the same batch; rename them separately`,
        "nested_paths",
      );
  }
  if (body.expandSequences) {
    const sets = new Set<string>();
    for (const row of [...rows.values()]) {
      const key = row.is_file ? sequenceKey(row.name) : null;
      // Each set is read once, however many of its frames are selected.
      if (!key || sets.has(`${row.parent_id}/${key}`)) continue;
      sets.add(`${row.parent_id}/${key}`);
      for (const frame of sequenceOf(files.db, row, RENAME_EXPANDED_MAX)) {
        rows.set(frame.path, frame);
        if (rows.size > RENAME_EXPANDED_MAX)
          throw validationFailed(
            "paths",
            `With their numbered sets the paths take more than ${RENAME_EXPANDED_MAX} items; rename fewer at a time, or send expandSequences: false`,
            "too_many_items",
          );
      }
    }
  }
  return rows;
}

/**
 * A plan is identified by a SHA-256 of what decides it: the request (its parsed members, so
 * defaults and paths' order do not matter) and the state it read, each entry's id and name and
 * its folder's revision, which moves on whenever anything in that folder is added, removed,
 * renamed or rewritten. Equal ids mean the same plan over the same tree.
 */
function planIdOf(files: FilesService, body: RenameBatchInput, rows: Map<string, EntryRow>) {
  const revisions = new Map<number, number>();
  const state = [...rows.values()]
    .sort((a, b) => a.id - b.id)
    .map((r) => {
      const folder = r.parent_id!;
      if (!revisions.has(folder)) revisions.set(folder, entries.byId(files.db, folder)!.revision);
      return [r.id, r.name, folder, revisions.get(folder)];
    });
  const request = {
    paths: [...new Set(body.paths)].sort(),
    pattern: body.pattern,
    overwrite: body.overwrite,
    expandSequences: body.expandSequences,
  };
  return createHash("sha256").update(JSON.stringify({ request, state })).digest("hex");
}

function readPlan(files: FilesService, workspaceId: string, body: RenameBatchInput): ReadPlan {
  const rows = readEntries(files, workspaceId, body);
  const planEntries: PlanEntry[] = [...rows.values()].map((r) => ({
    path: r.path,
    name: r.name,
    folder: entries.parentOf(r.path),
    isFile: r.is_file === 1,
  }));
  const plan = planRenames(planEntries, body.pattern, body.overwrite, (p) => {
    const row = entries.byPath(files.db, workspaceId, p);
    return row && (row.is_file ? "file" : "folder");
  });
  return { ...plan, rows, planId: planIdOf(files, body, rows) };
}

const resultOf = (
  plan: ReadPlan,
  dryRun: boolean,
  applied: RenameStep[],
  failed: { from: string; to: string; code: string; message: string } | null,
) => ({
  dryRun,
  expanded: plan.steps.length,
  changed: plan.changed,
  steps: plan.steps,
  conflicts: plan.conflicts,
  applied,
  failed,
  planId: plan.planId,
});

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
    if (body.planId !== undefined && body.planId !== plan.planId) {
      throw validationFailed(
        "planId",
        "The tree changed since the plan was made (or the request differs); make a new dry run",
        "plan_stale",
        {
          issue: "The plan is stale",
          details: { planId: body.planId, currentPlanId: plan.planId },
        },
      );
    }
    const [first] = plan.conflicts;
    if (first) {
      const failed = {
        from: first.from,
        to: first.to,
        code: "conflict",
        message: `Nothing was renamed: ${plan.conflicts.length} conflict(s), the first: ${first.message}`,
      };
      return { renames: [], result: resultOf(plan, false, [], failed) };
    }
    const applied = plan.steps.filter((s) => !s.unchanged);
    const renames: BatchRename[] = applied.map((s) => ({
      entry: plan.rows.get(s.from)!,
      newName: s.newName,
      to: s.to,
      replaces: s.overwrite ? entries.byPath(files.db, workspaceId, s.to) : undefined,
    }));
    return { renames, result: resultOf(plan, false, applied, null) };
  });
}
