import { createHash } from "node:crypto";
import type { z } from "zod";
import type { renameBatchBodySchema } from "@/contract/operations";
import { sequenceKey } from "@/contract/rules";
import { validationFailed } from "@/server/lib/api-error";
import { type EntryRow, parentOf } from "@/server/modules/files/files.repository";
import type { PlanEntry, RenamePlan, RenameStep } from "./rename-plan";

/*
 * What a batch rename decides without reading the tree, shared by both engines
 * (rename.service.ts on SQLite, rename.pg.ts on PostgreSQL), so their answers, plan ids
 * included, cannot drift apart.
 */

/**
 * Most items a plan covers once numbered sets are expanded: a whole set of frames is one
 * selection, so this is well above the 200 paths a request lists, and bounds one transaction.
 */
export const RENAME_EXPANDED_MAX = 10_000;

export type RenameBatchInput = z.output<typeof renameBatchBodySchema>;

/** The plan as the tree stands, with the rows it was made from and its id. */
export interface ReadPlan extends RenamePlan {
  rows: Map<string, EntryRow>;
  planId: string;
}

/** A folder renamed with something inside it would move that thing's path under the plan. */
export function checkNested(paths: string[]) {
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
}

export const tooManyItems = () =>
  validationFailed(
    "paths",
    `With their numbered sets the paths take more than ${RENAME_EXPANDED_MAX} items; rename fewer at a time, or send expandSequences: false`,
    "too_many_items",
  );

/** One selected frame of each numbered set: each set is read once, however many are selected. */
export function setsToRead(rows: Map<string, EntryRow>) {
  const sets = new Map<string, EntryRow>();
  for (const row of rows.values()) {
    const key = row.is_file ? sequenceKey(row.name) : null;
    if (key && !sets.has(`${row.parent_id}/${key}`)) sets.set(`${row.parent_id}/${key}`, row);
  }
  return [...sets.values()];
}

export const planEntriesOf = (rows: Map<string, EntryRow>): PlanEntry[] =>
  [...rows.values()].map((r) => ({
    path: r.path,
    name: r.name,
    folder: parentOf(r.path),
    isFile: r.is_file === 1,
  }));

/**
 * A plan is identified by a SHA-256 of what decides it: the request (its parsed members, so
 * defaults and paths' order do not matter) and the state it read, each entry's id and name and
 * its folder's revision (`revisions`, by folder id), which moves on whenever anything in that
 * folder is added, removed, renamed or rewritten. Equal ids mean the same plan over the same tree.
 */
export function planHash(
  body: RenameBatchInput,
  rows: Map<string, EntryRow>,
  revisions: Map<number, number>,
) {
  const state = [...rows.values()]
    .sort((a, b) => a.id - b.id)
    .map((r) => [r.id, r.name, r.parent_id, revisions.get(r.parent_id!)]);
  const request = {
    paths: [...new Set(body.paths)].sort(),
    pattern: body.pattern,
    overwrite: body.overwrite,
    expandSequences: body.expandSequences,
  };
  return createHash("sha256").update(JSON.stringify({ request, state })).digest("hex");
}

export const resultOf = (
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

/** An apply with the `planId` of a dry run is refused when the plan it would run now differs. */
export function checkFresh(body: RenameBatchInput, planId: string) {
  if (body.planId === undefined || body.planId === planId) return;
  throw validationFailed(
    "planId",
    "The tree changed since the plan was made (or the request differs); make a new dry run",
    "plan_stale",
    { issue: "The plan is stale", details: { planId: body.planId, currentPlanId: planId } },
  );
}

/** An apply with conflicts changes nothing and says why in `failed`; null when there are none. */
export function conflictResult(plan: ReadPlan) {
  const [first] = plan.conflicts;
  if (!first) return null;
  return resultOf(plan, false, [], {
    from: first.from,
    to: first.to,
    code: "conflict",
    message: `Nothing was renamed: ${plan.conflicts.length} conflict(s), the first: ${first.message}`,
  });
}

/** The steps that change a name: what an apply does. */
export const changingSteps = (plan: ReadPlan) => plan.steps.filter((s) => !s.unchanged);

/** The `file.renamed` event's data for the renames done, as from → to. */
export const renamedData = (renames: { from: string; to: string }[]) => ({
  paths: renames.map((r) => r.to),
  renames: renames.slice(0, 100),
  count: renames.length,
});
