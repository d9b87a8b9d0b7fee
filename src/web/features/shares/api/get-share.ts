import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Share } from "@/contract/shares";
import { apiRequest } from "@/web/lib/api-client";
import { sharePath, sharesKeys } from "./shares-keys";

export const shareQueryOptions = (workspaceId: string, id: string) =>
  queryOptions({
    queryKey: sharesKeys.one(workspaceId, id),
    queryFn: ({ signal }) => apiRequest<Share>(sharePath(id), { signal }),
    staleTime: 5_000,
  });

export function useShareQuery(workspaceId: string, id: string) {
  return useQuery(shareQueryOptions(workspaceId, id));
}
