import { queryOptions, useQuery } from "@tanstack/react-query";
import type { BulkJob } from "@/contract/operations";
import { apiRequest } from "@/web/lib/api-client";
import { isActive } from "../job-model";
import { ACTIVE_POLL_MS, bulkPath, jobsKeys } from "./jobs-keys";

export const bulkJobQueryOptions = (workspaceId: string, id: string) =>
  queryOptions({
    queryKey: jobsKeys.bulkJob(workspaceId, id),
    queryFn: ({ signal }) =>
      apiRequest<BulkJob>(bulkPath(`/${encodeURIComponent(id)}`), { signal }),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data && isActive(query.state.data) ? ACTIVE_POLL_MS : false,
  });

/** One bulk job, watched while it runs (a page waiting for its own job's result). */
export function useBulkJobQuery(workspaceId: string, id: string | null) {
  return useQuery({ ...bulkJobQueryOptions(workspaceId, id ?? ""), enabled: id !== null });
}
