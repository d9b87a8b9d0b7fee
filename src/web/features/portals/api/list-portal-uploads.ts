import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { PortalUploadsPage } from "@/contract/portal-review";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { portalsKeys, UPLOADS_FIRST_PAGE, UPLOADS_PAGE, type UploadsFilter } from "./portals-keys";
import { inMotion } from "./review-cache";

/** The review queue across portals, newest first, a page at a time (the service's cursor). */
export const portalUploadsQueryOptions = (workspaceId: string, filter: UploadsFilter) =>
  infiniteQueryOptions({
    queryKey: portalsKeys.uploads(workspaceId, filter),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<PortalUploadsPage>(workspacePath("/portal-uploads"), {
        query: {
          portalId: filter.portalId,
          status: filter.status,
          q: filter.q,
          cursor: pageParam,
          limit: pageParam === undefined ? UPLOADS_FIRST_PAGE : UPLOADS_PAGE,
        },
        signal,
      }),
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: 5_000,
    // Watched closely only while the first page has files arriving or a spec being checked:
    // a refresh reads every loaded page again.
    refetchInterval: (query) => (query.state.data?.pages[0]?.items.some(inMotion) ? 5_000 : 60_000),
  });

export function usePortalUploadsQuery(workspaceId: string, filter: UploadsFilter) {
  return useInfiniteQuery(portalUploadsQueryOptions(workspaceId, filter));
}
