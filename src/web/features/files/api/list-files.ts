import { queryOptions } from "@tanstack/react-query";
import type { FileListing } from "@/contract/files";
import { apiRequest } from "../../../lib/api-client";
import { type FolderView, filesKeys } from "./files-keys";

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
