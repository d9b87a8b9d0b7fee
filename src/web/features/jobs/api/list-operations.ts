import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Operation } from "@/contract/operations";
import { apiRequest } from "@/web/lib/api-client";
import { isActive } from "../job-model";
import { ACTIVE_POLL_MS, jobsKeys, operationsPath, RECENT_LIMIT } from "./jobs-keys";

/** Move and copy jobs, newest first; `active` lists only queued and running ones. */
export const operationsQueryOptions = (workspaceId: string, active: boolean) =>
  queryOptions({
    queryKey: jobsKeys.operations(workspaceId, active),
    queryFn: ({ signal }) =>
      apiRequest<Operation[]>(operationsPath(), {
        query: { active: active ? 1 : undefined, limit: RECENT_LIMIT },
        signal,
      }),
    staleTime: 1_000,
    // Polled only while something runs; a job started here invalidates the list.
    refetchInterval: (query) => (query.state.data?.some(isActive) ? ACTIVE_POLL_MS : false),
  });

export function useOperationsQuery(workspaceId: string, active: boolean) {
  return useQuery(operationsQueryOptions(workspaceId, active));
}
