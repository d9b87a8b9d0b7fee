import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { webhooksKeys } from "./webhooks-keys";

export const eventCatalogueQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: webhooksKeys.catalogue(workspaceId),
    queryFn: ({ signal }) =>
      apiRequest<{ events: string[] }>(workspacePath("/webhooks/events"), { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useEventCatalogueQuery(workspaceId: string) {
  return useQuery(eventCatalogueQueryOptions(workspaceId));
}
