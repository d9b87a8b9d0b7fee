import type { ApiError } from "@/browser/api-error";
import type { ConflictChoice, CreateOperationBody, OperationConflict } from "@/contract/operations";

/** What the person chose in the conflict dialog: one choice for all, or one per item. */
export interface ConflictChoices {
  all: ConflictChoice | null;
  each: Readonly<Record<string, ConflictChoice>>;
}

/** Keeping both loses nothing and still does the work, so it is what an untouched item gets. */
export const DEFAULT_CHOICE: ConflictChoice = "keepBoth";

export const choiceFor = (choices: ConflictChoices, path: string): ConflictChoice =>
  choices.all ?? choices.each[path] ?? DEFAULT_CHOICE;

/**
 * The members to resubmit the job with. "For all" becomes `onConflict`, which also covers a
 * conflict that appears between the refusal and the resubmit; choices per item become
 * `resolutions` only, so a new conflict is refused again and shown, not decided blindly.
 */
export function resolutionMembers(
  conflicts: readonly OperationConflict[],
  choices: ConflictChoices,
): Pick<CreateOperationBody, "onConflict" | "resolutions"> {
  if (choices.all) return { onConflict: choices.all };
  return {
    resolutions: Object.fromEntries(conflicts.map((c) => [c.path, choiceFor(choices, c.path)])),
  };
}

/**
 * The conflicts of a move or copy refused for them, or null for any other error. The refusal is
 * a 400 with `details.conflicts` (its code `validation_failed`, whose issue says `conflict`;
 * `conflict` itself is read the same). Read by shape, so this module stays free of the client
 * (and testable without a browser).
 */
export function conflictsOf(error: unknown): OperationConflict[] | null {
  const e = error as Partial<ApiError> | null;
  if (e?.status !== 400) return null;
  const list = e.details?.conflicts;
  if (!Array.isArray(list)) return null;
  return list.filter(
    (c): c is OperationConflict =>
      typeof c?.path === "string" && typeof c?.destinationPath === "string",
  );
}
