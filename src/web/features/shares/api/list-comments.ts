import { queryOptions, useQuery } from "@tanstack/react-query";
import { SHARE_COMMENTS_PAGE_MAX } from "@/contract/rules";
import type { ShareComment } from "@/contract/shares";
import { apiRequest } from "@/web/lib/api-client";
import { sharePath, sharesKeys } from "./shares-keys";

/** A share's comments, oldest first (the thread's first page: up to 500). */
export const commentsQueryOptions = (workspaceId: string, id: string) =>
  queryOptions({
    queryKey: sharesKeys.comments(workspaceId, id),
    queryFn: ({ signal }) =>
      apiRequest<{ items: ShareComment[]; next: string | null }>(sharePath(id, "/comments"), {
        query: { limit: SHARE_COMMENTS_PAGE_MAX },
        signal,
      }),
    staleTime: 5_000,
  });

export function useCommentsQuery(workspaceId: string, id: string) {
  return useQuery(commentsQueryOptions(workspaceId, id));
}
