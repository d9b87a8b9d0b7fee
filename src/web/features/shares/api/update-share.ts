import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Share, UpdateShareBody } from "@/contract/shares";
import { apiRequest } from "@/web/lib/api-client";
import { invalidateAttention } from "@/web/lib/query-keys/attention";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { sharePath, sharesKeys } from "./shares-keys";

/** Extends a share (or changes its download limit); the receipt gains an `extended` entry. */
export function useUpdateShareMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateShareBody }) =>
      apiRequest<Share>(sharePath(id), { method: "PATCH", body }),
    onSuccess: (share) => {
      const workspaceId = currentWorkspaceId();
      queryClient.setQueryData(sharesKeys.one(workspaceId, share.id), share);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: sharesKeys.lists(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: sharesKeys.receipt(workspaceId, share.id) }),
        invalidateAttention(queryClient, workspaceId),
      ]);
    },
  });
}
