import { queryOptions } from "@tanstack/react-query";
import type { Operation } from "@/contract/operations";
import { apiRequest } from "@/web/lib/api-client";
import { jobsKeys, operationsPath } from "./jobs-keys";

export const operationQueryOptions = (workspaceId: string, id: string) =>
  queryOptions({
    queryKey: jobsKeys.operation(workspaceId, id),
    queryFn: ({ signal }) =>
      apiRequest<Operation>(operationsPath(`/${encodeURIComponent(id)}`), { signal }),
    staleTime: 0,
  });
