import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Transfer } from "@/contract/transfers";
import { apiRequest } from "@/web/lib/api-client";
import { isActiveTransfer } from "../transfer-model";
import { ACTIVE_POLL_MS, transfersKeys, transfersPath } from "./transfers-keys";

export const getTransfer = (id: string, signal?: AbortSignal) =>
  apiRequest<Transfer>(transfersPath(`/${encodeURIComponent(id)}`), { signal });

/** One transfer (the monitor's details); polled while it is active. */
export const transferQueryOptions = (workspaceId: string, id: string) =>
  queryOptions({
    queryKey: transfersKeys.one(workspaceId, id),
    queryFn: ({ signal }) => getTransfer(id, signal),
    staleTime: 1_000,
    refetchInterval: (query) =>
      query.state.data && isActiveTransfer(query.state.data) ? ACTIVE_POLL_MS : false,
  });

export function useTransferQuery(workspaceId: string, id: string | undefined) {
  return useQuery({ ...transferQueryOptions(workspaceId, id ?? ""), enabled: !!id });
}
