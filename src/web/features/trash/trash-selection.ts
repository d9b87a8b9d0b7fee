import type { TrashItem } from "@/contract/files";
import type { CreateBulkJobBody, TrashFilter as ServiceTrashFilter } from "@/contract/operations";
import { BULK_EXCEPT_MAX, BULK_IDS_MAX } from "@/contract/rules";
import { deletedWithinOptions, type TrashFilter } from "./trash-filter";

type TrashSelection = Extract<CreateBulkJobBody, { action: "restore" }>["selection"];

/** The page's filter as the service's: the same three tests, the window made a time. */
export function serviceFilter(filter: TrashFilter, now: number): ServiceTrashFilter {
  const hours = deletedWithinOptions.find((o) => o.value === filter.deletedWithin)?.hours ?? null;
  const q = filter.text.trim();
  return {
    ...(q ? { q } : {}),
    ...(filter.folder ? { folder: filter.folder } : {}),
    ...(hours === null ? {} : { deletedAfter: new Date(now - hours * 3600_000).toISOString() }),
  };
}

/**
 * What a restore or purge of the selection sends: the ids when they are fewer, or "everything
 * matching the filter except these" when the shown items left out are fewer (select all, then
 * untick a few). Null when neither fits a request.
 */
export function trashSelection(
  targets: readonly TrashItem[],
  shown: readonly TrashItem[],
  filter: TrashFilter,
  now: number,
): TrashSelection | null {
  const picked = new Set(targets.map((i) => i.id));
  const leftOut = shown.filter((i) => !picked.has(i.id)).map((i) => i.id);
  const byFilter = { filter: serviceFilter(filter, now), allExcept: leftOut };
  const byIds = { itemIds: [...picked] };
  if (picked.size === 0) return null;
  if (leftOut.length < picked.size && leftOut.length <= BULK_EXCEPT_MAX) return byFilter;
  return picked.size <= BULK_IDS_MAX ? byIds : null;
}
