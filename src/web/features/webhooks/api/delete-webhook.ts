import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { webhookPath, webhooksKeys } from "./webhooks-keys";

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
