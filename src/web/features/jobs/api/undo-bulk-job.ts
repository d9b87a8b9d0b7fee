import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BulkJob } from "@/contract/operations";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { bulkPath, jobsKeys } from "./jobs-keys";

/** Undoes a completed trash job in one request: the answer is the restore job it started. */
export function useUndoBulkJobMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<BulkJob>(bulkPath(`/${encodeURIComponent(id)}/undo`), { method: "POST" }),
    onSuccess: (job) => {
      const workspaceId = currentWorkspaceId();
      queryClient.setQueryData(jobsKeys.bulkJob(workspaceId, job.id), job);
      return queryClient.invalidateQueries({ queryKey: jobsKeys.all(workspaceId) });
    },
  });
}
