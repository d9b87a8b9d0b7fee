import { queryOptions } from "@tanstack/react-query";
import type { Manifest } from "@/contract/files";
import { apiRequest } from "@/web/lib/api-client";
import { filesKeys } from "@/web/lib/query-keys/files";

/** Every file under `path` (up to the service's limit): fetched when asked, never kept long. */
export const manifestQueryOptions = (workspaceId: string, path: string) =>
  queryOptions({
    queryKey: [...filesKeys.all(workspaceId), "manifest", path] as const,
    queryFn: ({ signal }) =>
      apiRequest<Manifest>(`/workspaces/${encodeURIComponent(workspaceId)}/files/manifest`, {
        query: { path },
        signal,
      }),
    // A manifest of 100,000 files is megabytes: drop it soon after the dialog closes.
    gcTime: 5_000,
  });
