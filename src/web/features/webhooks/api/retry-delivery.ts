import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { WebhookDeliveryDetail } from "@/contract/webhooks";
import { apiRequest } from "../../../lib/api-client";
import { currentWorkspaceId, webhookPath, webhooksKeys } from "./webhooks-keys";

export function retryDelivery(id: string, deliveryId: string) {
  return apiRequest<WebhookDeliveryDetail>(
    webhookPath(id, `/deliveries/${encodeURIComponent(deliveryId)}/retry`),
    { method: "POST" },
  );
}

/** Retries one delivery, or several one after another (each waits for its attempt). */
export function useRetryDeliveriesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, deliveryIds }: { id: string; deliveryIds: string[] }) => {
      const results: WebhookDeliveryDetail[] = [];
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
      ]);
    },
  });
}
