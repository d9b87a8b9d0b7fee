import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BulkJob, CreateBulkJobBody } from "@/contract/operations";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { bulkPath, jobsKeys } from "./jobs-keys";

/** Starts one bulk job on the service: one request, whatever the size of the selection. */
export const createBulkJob = (body: CreateBulkJobBody) =>
  apiRequest<BulkJob>(bulkPath(), { method: "POST", body });

export function useCreateBulkJobMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBulkJob,
    onSuccess: (job) => {
      const workspaceId = currentWorkspaceId();
      queryClient.setQueryData(jobsKeys.bulkJob(workspaceId, job.id), job);
      return queryClient.invalidateQueries({ queryKey: jobsKeys.all(workspaceId) });
    },
  });
}
