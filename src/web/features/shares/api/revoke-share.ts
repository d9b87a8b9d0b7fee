import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Share } from "@/contract/shares";
import { apiRequest } from "@/web/lib/api-client";
import { invalidateAttention } from "@/web/lib/query-keys/attention";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { sharePath, sharesKeys } from "./shares-keys";

/** Revokes a share for good: its links stop working at once. */
export function useRevokeShareMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<Share>(sharePath(id), { method: "DELETE" }),
    onSuccess: (share, id) => {
      const workspaceId = currentWorkspaceId();
      queryClient.setQueryData(sharesKeys.one(workspaceId, id), share);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: sharesKeys.receipt(workspaceId, id) }),
        queryClient.invalidateQueries({ queryKey: sharesKeys.lists(workspaceId) }),
        invalidateAttention(queryClient, workspaceId),
      ]);
    },
  });
}
