import { queryOptions, useQuery } from "@tanstack/react-query";
import type { WebhookEndpoint } from "@/contract/webhooks";
import { apiRequest } from "@/web/lib/api-client";
import { webhookPath, webhooksKeys } from "./webhooks-keys";

export const webhookQueryOptions = (workspaceId: string, id: string) =>
  queryOptions({
    queryKey: webhooksKeys.endpoint(workspaceId, id),
    queryFn: ({ signal }) => apiRequest<WebhookEndpoint>(webhookPath(id), { signal }),
    refetchInterval: 5_000,
  });

export function useWebhookQuery(workspaceId: string, id: string) {
  return useQuery(webhookQueryOptions(workspaceId, id));
}
