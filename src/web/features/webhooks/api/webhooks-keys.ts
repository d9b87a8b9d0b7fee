import { workspacePath } from "@/web/lib/api-client";

export interface DeliveryFilters {
  status?: "pending" | "delivered" | "failed";
  type?: string;
  /** A look-back window; the `since` time is computed when the page is fetched. */
  window?: "1h" | "24h" | "7d";
}

export const webhooksKeys = {
  all: (workspaceId: string) => ["webhooks", workspaceId] as const,
  list: (workspaceId: string) => [...webhooksKeys.all(workspaceId), "list"] as const,
  endpoint: (workspaceId: string, id: string) =>
    [...webhooksKeys.all(workspaceId), "endpoint", id] as const,
  catalogue: (workspaceId: string) => [...webhooksKeys.all(workspaceId), "catalogue"] as const,
  deliveriesOf: (workspaceId: string, id: string) =>
    [...webhooksKeys.endpoint(workspaceId, id), "deliveries"] as const,
  deliveries: (workspaceId: string, id: string, filters: DeliveryFilters) =>
    [...webhooksKeys.deliveriesOf(workspaceId, id), "list", filters] as const,
  failedSince: (workspaceId: string, id: string) =>
    [...webhooksKeys.deliveriesOf(workspaceId, id), "failed-since"] as const,
  delivery: (workspaceId: string, id: string, deliveryId: string) =>
    [...webhooksKeys.deliveriesOf(workspaceId, id), "detail", deliveryId] as const,
};

export const webhookPath = (id: string, rest = "") =>
  workspacePath(`/webhooks/${encodeURIComponent(id)}${rest}`);
