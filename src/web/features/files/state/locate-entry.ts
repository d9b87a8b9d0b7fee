import type { QueryClient } from "@tanstack/react-query";
import type { FileEntry } from "@/contract/files";
import { FILES_PAGE_SIZE, filesPageQueryOptions } from "@/web/features/files/api/list-files";
import type { FolderView } from "@/web/lib/query-keys/files";
import { compareInNameOrder, type EntryRef } from "./name-order";

/** Pages read looking for an entry when the order is not by name (no binary search there). */
const LINEAR_SCAN_PAGES = 10;

/**
 * The index of an entry in a folder listing, or null when it is not there. In name order it
 * binary-searches the pages (about nine requests for 100,000 entries); pages read are the list's
 * own, so they are cached for the scroll that follows.
 */
export async function locateEntry(
  queryClient: QueryClient,
  workspaceId: string,
  view: FolderView,
  total: number,
  target: EntryRef,
): Promise<number | null> {
  const pageCount = Math.ceil(total / FILES_PAGE_SIZE);
  const read = (page: number) =>
    queryClient.ensureQueryData(filesPageQueryOptions(workspaceId, view, page));
  const indexIn = (items: FileEntry[], page: number) => {
    const i = items.findIndex((e) => e.path === target.path);
    return i < 0 ? null : page * FILES_PAGE_SIZE + i;
  };
  if (view.sort !== "name") {
    for (let page = 0; page < Math.min(pageCount, LINEAR_SCAN_PAGES); page++) {
      const found = indexIn((await read(page)).items, page);
      if (found !== null) return found;
    }
    return null;
  }
  let lo = 0;
  let hi = pageCount - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const { items } = await read(mid);
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return null;
    if (compareInNameOrder(target, first, view.order) < 0) hi = mid - 1;
    else if (compareInNameOrder(target, last, view.order) > 0) lo = mid + 1;
    else return indexIn(items, mid);
  }
  return null;
}
