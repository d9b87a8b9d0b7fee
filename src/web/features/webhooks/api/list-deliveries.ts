import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from "@tanstack/react-query";
import type { WebhookDelivery } from "@/contract/webhooks";
import { apiRequest } from "@/web/lib/api-client";
import { listFailedSinceLastDelivered } from "./failed-since";
import { type DeliveryFilters, webhookPath, webhooksKeys } from "./webhooks-keys";

export const DELIVERIES_PAGE_SIZE = 100;

const windowMs: Record<NonNullable<DeliveryFilters["window"]>, number> = {
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
};

export const deliveriesQueryOptions = (workspaceId: string, id: string, filters: DeliveryFilters) =>
  infiniteQueryOptions({
    queryKey: webhooksKeys.deliveries(workspaceId, id, filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<WebhookDelivery[]>(webhookPath(id, "/deliveries"), {
        query: {
          status: filters.status,
          type: filters.type,
          since: filters.window
            ? new Date(Date.now() - windowMs[filters.window]).toISOString()
            : undefined,
          before: pageParam,
          limit: DELIVERIES_PAGE_SIZE,
        },
        signal,
      }),
    getNextPageParam: (last) =>
      last.length === DELIVERIES_PAGE_SIZE ? last[last.length - 1]?.id : undefined,
    // A pending delivery is attempted within moments of its event: watch it closely until then.
    // A refetch reads every loaded page again, so the pause grows with them: at most one
    // request a second, however far the person has scrolled.
    refetchInterval: (query) => {
      const pages = query.state.data?.pages ?? [];
      const pending = pages[0]?.some((d) => d.status === "pending" && d.attempts === 0);
      return (pending ? 1_000 : 5_000) * Math.max(1, pages.length);
    },
  });

export function useDeliveriesQuery(workspaceId: string, id: string, filters: DeliveryFilters) {
  return useInfiniteQuery(deliveriesQueryOptions(workspaceId, id, filters));
}

export const failedSinceQueryOptions = (workspaceId: string, id: string) =>
  queryOptions({
    queryKey: webhooksKeys.failedSince(workspaceId, id),
    queryFn: ({ signal }) =>
      listFailedSinceLastDelivered((query) =>
        apiRequest<WebhookDelivery[]>(webhookPath(id, "/deliveries"), { query, signal }),
      ),
  });

export function useFailedSinceQuery(workspaceId: string, id: string) {
  return useQuery(failedSinceQueryOptions(workspaceId, id));
}
