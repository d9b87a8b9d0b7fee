import type { CreateBulkJobBody } from "@/contract/operations";
import { BULK_PATHS_MAX, baseName } from "@/contract/rules";
import type { Selection } from "./selection";

/** The service takes at most this many paths per DELETE (each request is all or nothing). */
export const DELETE_BATCH = 500;

type EntrySelection = Extract<CreateBulkJobBody, { action: "trash" }>["selection"];

/**
 * Whether trashing or deleting this selection is work for one job on the service: "select all"
 * (however many it is), or more paths than one DELETE request takes. Anything smaller is one
 * request that answers when it is done.
 */
export const needsJob = (selection: Selection) =>
  selection.mode === "all" || selection.ids.size > DELETE_BATCH;

/**
 * A folder's selection as a bulk job's: "all except" by the names left out (never the paths of
 * every entry), or the listed paths. A listed selection larger than a body takes cannot be sent.
 */
export function bulkEntrySelection(selection: Selection, folder: string): EntrySelection | null {
  if (selection.mode === "all") return { folder, allExcept: [...selection.except].map(baseName) };
  return selection.ids.size > BULK_PATHS_MAX ? null : { paths: [...selection.ids] };
}
