import { queryOptions } from "@tanstack/react-query";
import type { FileVersion } from "@/contract/files";
import { apiRequest } from "@/web/lib/api-client";
import { filesKeys } from "@/web/lib/query-keys/files";

/** Kept versions of a file, newest first; the live content is not among them. */
export const versionsQueryOptions = (workspaceId: string, path: string) =>
  queryOptions({
    queryKey: filesKeys.versions(workspaceId, path),
    queryFn: ({ signal }) =>
      apiRequest<FileVersion[]>(`/workspaces/${encodeURIComponent(workspaceId)}/files/versions`, {
        query: { path },
        signal,
      }),
  });
