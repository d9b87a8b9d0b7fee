import { queryOptions, useQuery } from "@tanstack/react-query";
import type { WebhookDeliveryDetail } from "@/contract/webhooks";
import { apiRequest } from "@/web/lib/api-client";
import { webhookPath, webhooksKeys } from "./webhooks-keys";

export const deliveryQueryOptions = (workspaceId: string, id: string, deliveryId: string) =>
  queryOptions({
    queryKey: webhooksKeys.delivery(workspaceId, id, deliveryId),
    queryFn: ({ signal }) =>
      apiRequest<WebhookDeliveryDetail>(
        webhookPath(id, `/deliveries/${encodeURIComponent(deliveryId)}`),
        { signal },
      ),
    refetchInterval: (query) => (query.state.data?.status === "pending" ? 2_000 : false),
  });

export function useDeliveryQuery(workspaceId: string, id: string, deliveryId: string) {
  return useQuery(deliveryQueryOptions(workspaceId, id, deliveryId));
}
