import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Operation } from "@/contract/operations";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { jobsKeys, operationsPath } from "./jobs-keys";

export function useCancelOperationMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<Operation>(operationsPath(`/${encodeURIComponent(id)}/cancel`), {
        method: "POST",
      }),
    onSuccess: (job) => {
      const workspaceId = currentWorkspaceId();
      queryClient.setQueryData(jobsKeys.operation(workspaceId, job.id), job);
      return queryClient.invalidateQueries({ queryKey: jobsKeys.all(workspaceId) });
    },
  });
}
