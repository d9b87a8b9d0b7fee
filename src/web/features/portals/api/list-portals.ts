import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Portal } from "@/contract/portals";
import { apiRequest } from "@/web/lib/api-client";
import { portalsKeys, portalsPath } from "./portals-keys";

export const portalsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: portalsKeys.list(workspaceId),
    queryFn: ({ signal }) => apiRequest<Portal[]>(portalsPath(), { signal }),
    staleTime: 5_000,
    // Uploads land on their own: the counts and "last upload" follow without a reload.
    refetchInterval: 15_000,
  });

export function usePortalsQuery(workspaceId: string) {
  return useQuery(portalsQueryOptions(workspaceId));
}
