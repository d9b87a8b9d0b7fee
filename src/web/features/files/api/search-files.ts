import { queryOptions } from "@tanstack/react-query";
import type { SearchResults } from "@/contract/files";
import { apiRequest } from "@/web/lib/api-client";
import { filesKeys } from "@/web/lib/query-keys/files";

export const SEARCH_LIMIT = 100;

/** Names containing `q` in `path` and below, best matches first. */
export const searchFilesQueryOptions = (workspaceId: string, path: string, q: string) =>
  queryOptions({
    queryKey: filesKeys.search(workspaceId, path, q),
    queryFn: ({ signal }) =>
      apiRequest<SearchResults>(`/workspaces/${encodeURIComponent(workspaceId)}/files/search`, {
        query: { q, path: path || undefined, limit: SEARCH_LIMIT },
        signal,
      }),
    enabled: q.length > 0,
    staleTime: 10_000,
  });
