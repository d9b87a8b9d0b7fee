import { queryOptions, useQuery } from "@tanstack/react-query";
import type { WebhookEndpoint } from "@/contract/webhooks";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { webhooksKeys } from "./webhooks-keys";

export const webhooksQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: webhooksKeys.list(workspaceId),
    queryFn: ({ signal }) => apiRequest<WebhookEndpoint[]>(workspacePath("/webhooks"), { signal }),
    // Failure counts and next retries move on their own as the dispatcher works.
    refetchInterval: 5_000,
  });

export function useWebhooksQuery(workspaceId: string) {
  return useQuery(webhooksQueryOptions(workspaceId));
}
