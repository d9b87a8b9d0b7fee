import { queryOptions } from "@tanstack/react-query";
import type { TrashItem } from "@/contract/files";
import { apiRequest } from "@/web/lib/api-client";
import { trashKeys } from "@/web/lib/query-keys/trash";

/** Every trashed item, most recently deleted first (the service does not page the trash). */
export const trashListQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: trashKeys.list(workspaceId),
    queryFn: ({ signal }) =>
      apiRequest<TrashItem[]>(`/workspaces/${encodeURIComponent(workspaceId)}/files/trash`, {
        signal,
      }),
  });
