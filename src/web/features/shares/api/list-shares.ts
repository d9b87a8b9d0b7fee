import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { SharesPage } from "@/contract/shares";
import { apiRequest } from "@/web/lib/api-client";
import { SHARES_PAGE_SIZE, type SharesFilter, sharesKeys, sharesPath } from "./shares-keys";

/** Shares newest first, a page at a time (the service's cursor). */
export const sharesQueryOptions = (workspaceId: string, filter: SharesFilter) =>
  infiniteQueryOptions({
    queryKey: sharesKeys.list(workspaceId, filter),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<SharesPage>(sharesPath(), {
        query: {
          status: filter.status,
          expiringWithinDays: filter.expiringWithinDays,
          neverOpened: filter.neverOpened ? "true" : undefined,
          recipient: filter.recipient,
          verdict: filter.verdict,
          cursor: pageParam,
          limit: SHARES_PAGE_SIZE,
        },
        signal,
      }),
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: 5_000,
  });

export function useSharesQuery(workspaceId: string, filter: SharesFilter, enabled = true) {
  return useInfiniteQuery({ ...sharesQueryOptions(workspaceId, filter), enabled });
}
