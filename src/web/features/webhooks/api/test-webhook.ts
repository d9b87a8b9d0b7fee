import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { webhookPath, webhooksKeys } from "./webhooks-keys";

export function useTestWebhookMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<{ eventId: string; deliveryId?: string }>(webhookPath(id, "/test"), {
        method: "POST",
      }),
    onSuccess: (_data, id) => {
      const workspaceId = currentWorkspaceId();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveriesOf(workspaceId, id) }),
        queryClient.invalidateQueries({ queryKey: webhooksKeys.list(workspaceId) }),
      ]);
    },
  });
}
