import { queryOptions } from "@tanstack/react-query";
import type { BulkJob } from "@/contract/operations";
import { apiRequest } from "@/web/lib/api-client";
import { bulkPath, jobsKeys } from "./jobs-keys";

/** One bulk job; whoever follows it reads it again each second (`followBulkJob`). */
export const bulkJobQueryOptions = (workspaceId: string, id: string) =>
  queryOptions({
    queryKey: jobsKeys.bulkJob(workspaceId, id),
    queryFn: ({ signal }) =>
      apiRequest<BulkJob>(bulkPath(`/${encodeURIComponent(id)}`), { signal }),
    staleTime: 0,
  });
