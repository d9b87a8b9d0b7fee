import { queryOptions } from "@tanstack/react-query";
import type { TrashItem } from "@/contract/files";
import { apiRequest } from "../../../lib/api-client";
import { filesKeys } from "./files-keys";

export const trashQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: filesKeys.trash(workspaceId),
    queryFn: ({ signal }) =>
      apiRequest<TrashItem[]>(`/workspaces/${encodeURIComponent(workspaceId)}/files/trash`, {
        signal,
      }),
  });
