import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BulkJob } from "@/contract/operations";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { bulkPath, jobsKeys } from "./jobs-keys";

export function useCancelBulkJobMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<BulkJob>(bulkPath(`/${encodeURIComponent(id)}/cancel`), { method: "POST" }),
    onSuccess: (job) => {
      const workspaceId = currentWorkspaceId();
      queryClient.setQueryData(jobsKeys.bulkJob(workspaceId, job.id), job);
      return queryClient.invalidateQueries({ queryKey: jobsKeys.all(workspaceId) });
    },
  });
}
