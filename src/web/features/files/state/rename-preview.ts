import type { ApiError } from "@/browser/api-error";
import type { RenameBatchResult, RenamePattern } from "@/contract/operations";
import { baseName } from "@/contract/rules";

/** The batch rename form as typed: text everywhere, numbers parsed when the pattern is built. */
export interface RenameForm {
  find: string;
  replace: string;
  regex: boolean;
  ignoreCase: boolean;
  includeExtension: boolean;
  prefix: string;
  suffix: string;
  numbering: boolean;
  start: string;
  step: string;
  padding: string;
  position: "prefix" | "suffix" | "replace";
  separator: string;
}

/** The contract's numbering defaults (RenamePattern.numbering). */
export const emptyRenameForm: RenameForm = {
  find: "",
  replace: "",
  regex: false,
  ignoreCase: false,
  includeExtension: false,
  prefix: "",
  suffix: "",
  numbering: false,
  start: "1",
  step: "1",
  padding: "3",
  position: "suffix",
  separator: "_",
};

const integer = (text: string, fallback: number) => {
  const n = Number(text.trim());
  return text.trim() !== "" && Number.isInteger(n) ? n : fallback;
};

/**
 * The pattern the service is sent: empty texts and unchecked options are left out, so the
 * request says only what the person asked for. Out-of-bounds numbers are sent as typed: the
 * service's refusal names the field.
 */
export function buildPattern(form: RenameForm): RenamePattern {
  const pattern: RenamePattern = {};
  if (form.find) {
    pattern.find = form.find;
    pattern.replace = form.replace;
    if (form.regex) pattern.regex = true;
    if (form.ignoreCase) pattern.ignoreCase = true;
  }
  if (form.includeExtension) pattern.includeExtension = true;
  if (form.prefix) pattern.prefix = form.prefix;
  if (form.suffix) pattern.suffix = form.suffix;
  if (form.numbering)
    pattern.numbering = {
      start: integer(form.start, 1),
      step: integer(form.step, 1),
      padding: integer(form.padding, 3),
      position: form.position,
      separator: form.separator,
    };
  return pattern;
}

/** A pattern that changes nothing needs no dry run. */
export const isEmptyPattern = (pattern: RenamePattern) =>
  !pattern.find && !pattern.prefix && !pattern.suffix && !pattern.numbering;

export interface PreviewRow {
  /** The item's path before the rename (the row's key). */
  from: string;
  name: string;
  newName: string;
  status: "renamed" | "unchanged" | "conflict";
  /** Why it conflicts, as the service said. */
  reason?: string;
}

const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);

/** The source path a conflict names; the result types them loosely, so each spelling is read. */
const conflictPath = (c: Record<string, unknown>) => text(c.from) ?? text(c.path);
const conflictReason = (c: Record<string, unknown>) =>
  text(c.message) ?? text(c.reason) ?? text(c.code) ?? "Conflicts with another name";

/**
 * The preview table's rows: every step of the plan (renamed, or a conflict with its reason),
 * then the selected items the plan leaves as they are. With no result yet, every selected item
 * shows unchanged.
 */
export function previewRows(paths: readonly string[], result: RenameBatchResult | undefined) {
  const reasons = new Map<string, string>();
  const loose: PreviewRow[] = [];
  for (const conflict of result?.conflicts ?? []) {
    const from = conflictPath(conflict);
    if (from) reasons.set(from, conflictReason(conflict));
  }
  const rows: PreviewRow[] = [];
  const seen = new Set<string>();
  for (const step of result?.steps ?? []) {
    seen.add(step.from);
    const reason = reasons.get(step.from);
    rows.push({
      from: step.from,
      name: step.name,
      newName: step.newName,
      status: reason ? "conflict" : step.name === step.newName ? "unchanged" : "renamed",
      reason,
    });
  }
  for (const [from, reason] of reasons)
    if (!seen.has(from)) {
      seen.add(from);
      const name = baseName(from);
      loose.push({ from, name, newName: name, status: "conflict", reason });
    }
  for (const from of paths)
    if (!seen.has(from)) {
      const name = baseName(from);
      loose.push({ from, name, newName: name, status: "unchanged" });
    }
  return [...rows, ...loose];
}

/**
 * An apply refused because the tree changed since the dry run: `validation_failed` whose issue
 * has the code `plan_stale` (a bare `plan_stale` code is read the same). Read by shape, as
 * conflictsOf is.
 */
export function isPlanStale(error: unknown): boolean {
  const e = error as Partial<ApiError> | null;
  if (e?.code === "plan_stale") return true;
  const issues = e?.details?.issues;
  return Array.isArray(issues) && issues.some((i) => i?.code === "plan_stale");
}
