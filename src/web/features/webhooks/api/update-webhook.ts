import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateWebhookBody, WebhookEndpoint } from "@/contract/webhooks";
import { apiRequest } from "@/web/lib/api-client";
import { invalidateAttention } from "@/web/lib/query-keys/attention";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { webhookPath, webhooksKeys } from "./webhooks-keys";

export function useUpdateWebhookMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateWebhookBody }) =>
      apiRequest<WebhookEndpoint>(webhookPath(id), { method: "PATCH", body }),
    onSuccess: (endpoint) => {
      const workspaceId = currentWorkspaceId();
      queryClient.setQueryData(webhooksKeys.endpoint(workspaceId, endpoint.id), endpoint);
      // Re-enabling makes held deliveries due again, so their rows change too.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: webhooksKeys.list(workspaceId) }),
        queryClient.invalidateQueries({
          queryKey: webhooksKeys.deliveriesOf(workspaceId, endpoint.id),
        }),
        invalidateAttention(queryClient, workspaceId),
      ]);
    },
  });
}
