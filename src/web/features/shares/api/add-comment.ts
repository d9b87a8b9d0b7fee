import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateCommentBody, ShareComment } from "@/contract/shares";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { sharePath, sharesKeys } from "./shares-keys";

/** Adds a comment, or a reply (`parentId`), as the workspace. */
export function useAddCommentMutation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCommentBody) =>
      apiRequest<ShareComment>(sharePath(id, "/comments"), { method: "POST", body }),
    onSuccess: () => {
      const workspaceId = currentWorkspaceId();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: sharesKeys.comments(workspaceId, id) }),
        queryClient.invalidateQueries({ queryKey: sharesKeys.one(workspaceId, id) }),
      ]);
    },
  });
}
