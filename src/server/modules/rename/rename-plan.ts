import path from "node:path";
import { RE2JS, RE2JSException } from "re2js";
import type { z } from "zod";
import type { renamePatternSchema } from "@/contract/operations";
import { joinPath, nameProblem, nameSortKey, normalizeName } from "@/contract/rules";
import { validationFailed } from "@/server/lib/api-error";

/** A pattern as the route hands it over: numbering's defaults filled in. */
export type Pattern = z.output<typeof renamePatternSchema>;

/** One entry the plan covers: selected, or a frame its selected sibling brought along. */
export interface PlanEntry {
  path: string;
  name: string;
  folder: string;
  isFile: boolean;
}

export type EntryType = "file" | "folder";
export type ConflictReason = "exists" | "duplicate_in_plan" | "invalid_name";

export interface RenameStep {
  from: string;
  to: string;
  name: string;
  newName: string;
  type: EntryType;
  /** The name stays as it is: nothing to do for this item. */
  unchanged: boolean;
  /** Why the step cannot run, or null. */
  conflict: ConflictReason | null;
  /** The step replaces an existing file (only with `overwrite`). */
  overwrite: boolean;
}

export interface RenameConflict {
  from: string;
  to: string;
  reason: ConflictReason;
  /** What stands at `to` now (reason `exists`), else null. */
  existingType: EntryType | null;
  message: string;
}

export interface RenamePlan {
  steps: RenameStep[];
  conflicts: RenameConflict[];
  changed: number;
}

const RE2_HINT =
  "Patterns use RE2 syntax, which has no backreferences (\\1) and no lookaround ((?=, (?!, (?<=, (?<!)";

/**
 * Compiles the find-and-replace part once for the whole batch. Literal text goes through the
 * same engine, quoted, so `ignoreCase` means one thing for both. RE2 matches in time linear in
 * the name, so no pattern can stall the service the way a backtracking engine can.
 */
function compileFind(pattern: Pattern): ((text: string) => string) | null {
  if (!pattern.find) return null;
  const flags = pattern.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
  const replace = pattern.replace ?? "";
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern.regex ? pattern.find : RE2JS.quote(pattern.find), flags);
  } catch (err) {
    if (!(err instanceof RE2JSException)) throw err;
    throw validationFailed(
      "pattern.find",
      `pattern.find is not a valid regular expression: ${err.message}. ${RE2_HINT}.`,
      "invalid_regex",
    );
  }
  // With `regex`, the replacement expands $1, $<name>, $& and $$ as String.prototype.replace does.
  const replacement = pattern.regex ? replace : RE2JS.quoteReplacement(replace);
  return (text) => re.matcher(text).replaceAll(replacement);
}

/**
 * A file's extension is kept out of the pattern unless `includeExtension`: `.exr` of
 * `shot.0001.exr` (the last dot's part, as path.extname reads it, so `.env` has none). A
 * folder's dots are part of its name.
 */
function splitExtension(name: string, isFile: boolean): [stem: string, ext: string] {
  const ext = isFile ? path.extname(name) : "";
  return [name.slice(0, name.length - ext.length), ext];
}

/**
 * Builds the function that gives an item its new name. The order of operations: find and
 * replace, then numbering, then prefix and suffix, then the extension put back.
 */
export function compilePattern(pattern: Pattern): (entry: PlanEntry, index: number) => string {
  const find = compileFind(pattern);
  const { numbering, prefix = "", suffix = "" } = pattern;
  return (entry, index) => {
    let [stem, ext] = pattern.includeExtension
      ? [entry.name, ""]
      : splitExtension(entry.name, entry.isFile);
    if (find) stem = find(stem);
    if (numbering) {
      const n = String(numbering.start + index * numbering.step).padStart(numbering.padding, "0");
      if (numbering.position === "replace") stem = n;
      else if (numbering.position === "prefix") stem = `${n}${numbering.separator}${stem}`;
      else stem = `${stem}${numbering.separator}${n}`;
    }
    return normalizeName(`${prefix}${stem}${suffix}${ext}`);
  };
}

/**
 * The plan's order: by folder (path order), and within a folder by the listing's natural name
 * order (`frame_2` before `frame_10`, case-insensitive), which is also the numbering order.
 * Numbering starts again in each folder, since names only need to differ within one.
 */
function planOrder(entries: PlanEntry[]): PlanEntry[] {
  return entries
    .map((e) => ({ e, key: nameSortKey(e.name) }))
    .sort((a, b) =>
      a.e.folder !== b.e.folder
        ? a.e.folder < b.e.folder
          ? -1
          : 1
        : a.key < b.key
          ? -1
          : a.key > b.key
            ? 1
            : 0,
    )
    .map(({ e }) => e);
}

/**
 * The whole plan: each entry's new name and every reason it cannot be applied. `existing`
 * answers what stands at a path now (the tree as the plan read it). Pure: the same entries,
 * pattern and tree give the same plan, which is what lets an apply check it runs a dry run's plan.
 */
export function planRenames(
  entries: PlanEntry[],
  pattern: Pattern,
  overwrite: boolean,
  existing: (path: string) => EntryType | undefined,
): RenamePlan {
  const newNameOf = compilePattern(pattern);
  const steps: RenameStep[] = [];
  let folder: string | null = null;
  let index = 0;
  for (const entry of planOrder(entries)) {
    if (entry.folder !== folder) {
      folder = entry.folder;
      index = 0;
    }
    const newName = newNameOf(entry, index++);
    steps.push({
      from: entry.path,
      to: joinPath(entry.folder, newName),
      name: entry.name,
      newName,
      type: entry.isFile ? "file" : "folder",
      unchanged: newName === entry.name,
      conflict: null,
      overwrite: false,
    });
  }

  const byTarget = new Map<string, RenameStep[]>();
  for (const step of steps) byTarget.set(step.to, [...(byTarget.get(step.to) ?? []), step]);
  const leaving = new Set(steps.filter((s) => !s.unchanged).map((s) => s.from));

  const conflicts: RenameConflict[] = [];
  const refuse = (
    step: RenameStep,
    reason: ConflictReason,
    message: string,
    existingType: EntryType | null = null,
  ) => {
    step.conflict = reason;
    conflicts.push({ from: step.from, to: step.to, reason, existingType, message });
  };
  for (const step of steps) {
    if (step.unchanged) continue;
    const problem = nameProblem(step.newName);
    if (problem) {
      refuse(step, "invalid_name", `"${step.newName}": ${problem}`);
      continue;
    }
    if (byTarget.get(step.to)!.length > 1) {
      refuse(step, "duplicate_in_plan", `Another item of the batch is named "${step.newName}" too`);
      continue;
    }
    const there = leaving.has(step.to) ? undefined : existing(step.to);
    if (!there) continue;
    if (overwrite && there === "file" && step.type === "file") step.overwrite = true;
    else
      refuse(
        step,
        "exists",
        there === "folder" || step.type === "folder"
          ? `"${step.to}" already exists; folders are never overwritten`
          : `"${step.to}" already exists (overwrite replaces it)`,
        there,
      );
  }
  return { steps, conflicts, changed: steps.filter((s) => !s.unchanged).length };
}
