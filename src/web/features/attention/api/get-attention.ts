import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError } from "@/browser/api-error";
import type { Attention } from "@/contract/attention";
import { apiRequestValidated, type Validated, workspacePath } from "@/web/lib/api-client";
import { attentionKeys } from "@/web/lib/query-keys/attention";

/**
 * How often the summary is read while the console is in view. React Query pauses the poll
 * while the tab is hidden, and the answer's ETag makes an unchanged one a bodiless 304.
 */
export const ATTENTION_POLL_MS = 3_000;

/**
 * The summary with its ETag: each poll sends the ETag of the answer held, and a 304 keeps it
 * (the same object, so nothing that reads it renders again).
 */
export const attentionQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: attentionKeys.all(workspaceId),
    queryFn: ({ signal, client, queryKey }) =>
      apiRequestValidated<Attention>(
        workspacePath("/attention"),
        client.getQueryData<Validated<Attention>>(queryKey),
        { signal },
      ),
    // A key that may read none of it is refused for good: no point asking every 3 s.
    refetchInterval: ({ state }) =>
      state.error instanceof ApiError && state.error.status === 403 ? false : ATTENTION_POLL_MS,
    select: (answer) => answer.data,
  });

/** Shared by the navigation's counts and the page: one request serves both. */
export function useAttentionQuery(workspaceId: string) {
  return useQuery(attentionQueryOptions(workspaceId));
}
