import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatedShare, CreateShareBody } from "@/contract/shares";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { sharesKeys, sharesPath } from "./shares-keys";

export function useCreateShareMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateShareBody) =>
      apiRequest<CreatedShare>(sharesPath(), { method: "POST", body }),
    onSuccess: (share) => {
      const workspaceId = currentWorkspaceId();
      queryClient.setQueryData(sharesKeys.one(workspaceId, share.id), share);
      void queryClient.invalidateQueries({ queryKey: sharesKeys.lists(workspaceId) });
      void queryClient.invalidateQueries({ queryKey: sharesKeys.outbox(workspaceId) });
    },
  });
}
