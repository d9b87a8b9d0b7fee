import { queryOptions, useQuery } from "@tanstack/react-query";
import type { BulkJob } from "@/contract/operations";
import { apiRequest } from "@/web/lib/api-client";
import { isActive } from "../job-model";
import { ACTIVE_POLL_MS, bulkPath, jobsKeys, RECENT_LIMIT } from "./jobs-keys";

/** Bulk jobs, newest first; `active` lists only queued and running ones. */
export const bulkJobsQueryOptions = (workspaceId: string, active: boolean) =>
  queryOptions({
    queryKey: jobsKeys.bulkJobs(workspaceId, active),
    queryFn: ({ signal }) =>
      apiRequest<BulkJob[]>(bulkPath(), {
        query: { active: active ? 1 : undefined, limit: RECENT_LIMIT },
        signal,
      }),
    staleTime: 1_000,
    refetchInterval: (query) => (query.state.data?.some(isActive) ? ACTIVE_POLL_MS : false),
  });

export function useBulkJobsQuery(workspaceId: string, active: boolean) {
  return useQuery(bulkJobsQueryOptions(workspaceId, active));
}
