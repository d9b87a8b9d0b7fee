import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Transfer } from "@/contract/transfers";
import { apiRequest } from "@/web/lib/api-client";
import { isActiveTransfer } from "../transfer-model";
import {
  ACTIVE_POLL_MS,
  RECENT_LIMIT,
  type TransfersFilter,
  transfersKeys,
  transfersPath,
} from "./transfers-keys";

/** Recent transfers, newest first; polled only while one of them is active. */
export const transfersQueryOptions = (workspaceId: string, filter: TransfersFilter) =>
  queryOptions({
    queryKey: transfersKeys.list(workspaceId, filter),
    queryFn: ({ signal }) =>
      apiRequest<Transfer[]>(transfersPath(), {
        query: {
          active: filter.status === "active" ? 1 : undefined,
          status: filter.status === "active" ? undefined : filter.status,
          direction: filter.direction,
          limit: RECENT_LIMIT,
        },
        signal,
      }),
    staleTime: 1_000,
    refetchInterval: (query) => (query.state.data?.some(isActiveTransfer) ? ACTIVE_POLL_MS : false),
  });

export function useTransfersQuery(workspaceId: string, filter: TransfersFilter) {
  return useQuery(transfersQueryOptions(workspaceId, filter));
}
