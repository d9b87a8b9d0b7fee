import { type QueryClient, queryOptions } from "@tanstack/react-query";
import type { FileListing } from "@/contract/files";
import { apiRequest } from "@/web/lib/api-client";
import { type FolderView, filesKeys } from "@/web/lib/query-keys/files";

/** Rows per request: the spec allows up to 1000; 200 fills two screens and parses in ~1 ms. */
export const FILES_PAGE_SIZE = 200;

export const filesPageQueryOptions = (workspaceId: string, view: FolderView, page: number) =>
  queryOptions({
    queryKey: filesKeys.page(workspaceId, view, page),
    queryFn: ({ signal }) =>
      apiRequest<FileListing>(`/workspaces/${encodeURIComponent(workspaceId)}/files`, {
        query: {
          path: view.path,
          skip: page * FILES_PAGE_SIZE,
          count: FILES_PAGE_SIZE,
          // Extension parameters: sent only when they differ from the spec's own order.
          sort: view.sort === "name" ? undefined : view.sort,
          order: view.order === "asc" ? undefined : view.order,
        },
        signal,
      }),
    // Pages out of view are dropped soon so that scrolling a 100,000-entry folder stays light.
    staleTime: 15_000,
    gcTime: 20_000,
  });

/**
 * Pages read at a time when many are needed at once (a range, "select all" made into paths):
 * a burst of hundreds would run into the service's rate limit of 600 requests a minute.
 */
const PAGE_READ_CONCURRENCY = 6;

/** Pages `from` to `to` (inclusive), from the cache or a few requests at a time. */
export async function readFilesPages(
  queryClient: QueryClient,
  workspaceId: string,
  view: FolderView,
  from: number,
  to: number,
): Promise<FileListing[]> {
  const pages: FileListing[] = [];
  for (let start = from; start <= to; start += PAGE_READ_CONCURRENCY) {
    const batch = Array.from({ length: Math.min(PAGE_READ_CONCURRENCY, to - start + 1) }, (_, i) =>
      queryClient.ensureQueryData(filesPageQueryOptions(workspaceId, view, start + i)),
    );
    pages.push(...(await Promise.all(batch)));
  }
  return pages;
}
