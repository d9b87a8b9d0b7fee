import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { currentWorkspaceId, webhookPath, webhooksKeys } from "./webhooks-keys";

export function useDeleteWebhookMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(webhookPath(id), { method: "DELETE" }),
    onSuccess: (_data, id) => {
      const workspaceId = currentWorkspaceId();
      queryClient.removeQueries({ queryKey: webhooksKeys.endpoint(workspaceId, id) });
      return queryClient.invalidateQueries({ queryKey: webhooksKeys.list(workspaceId) });
    },
  });
}
