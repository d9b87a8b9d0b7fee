import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PortalDetail } from "@/contract/portals";
import { apiRequest } from "@/web/lib/api-client";
import { portalPath, portalsKeys } from "./portals-keys";
import { inMotion } from "./review-cache";

export const portalQueryOptions = (workspaceId: string, id: string) =>
  queryOptions({
    queryKey: portalsKeys.one(workspaceId, id),
    queryFn: ({ signal }) => apiRequest<PortalDetail>(portalPath(id), { signal }),
    staleTime: 5_000,
    // Files arriving and spec checks running change rows by themselves: watch them until done.
    refetchInterval: (query) => (query.state.data?.uploads.some(inMotion) ? 3_000 : 30_000),
  });

export function usePortalQuery(workspaceId: string, id: string) {
  return useQuery(portalQueryOptions(workspaceId, id));
}
