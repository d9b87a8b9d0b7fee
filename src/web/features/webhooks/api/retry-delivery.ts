import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { WebhookRetryResult } from "@/contract/webhooks";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { webhookPath, webhooksKeys } from "./webhooks-keys";

export function retryDelivery(id: string, deliveryId: string) {
  return apiRequest<WebhookRetryResult>(
    webhookPath(id, `/deliveries/${encodeURIComponent(deliveryId)}/retry`),
    { method: "POST" },
  );
}

/** Retries one delivery, or several one after another (each waits for its attempt). */
export function useRetryDeliveriesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, deliveryIds }: { id: string; deliveryIds: string[] }) => {
      const results: WebhookRetryResult[] = [];
      for (const deliveryId of deliveryIds) results.push(await retryDelivery(id, deliveryId));
      return results;
    },
    onSettled: (results, _error, { id }) => {
      const workspaceId = currentWorkspaceId();
      for (const detail of results ?? []) {
        queryClient.setQueryData(webhooksKeys.delivery(workspaceId, id, detail.id), detail);
      }
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveriesOf(workspaceId, id) }),
        queryClient.invalidateQueries({ queryKey: webhooksKeys.list(workspaceId) }),
        // An attempt moves the endpoint's failure count and may disable it. Exact: the details
        // under this key were just set from the results.
        queryClient.invalidateQueries({
          queryKey: webhooksKeys.endpoint(workspaceId, id),
          exact: true,
        }),
      ]);
    },
  });
}
