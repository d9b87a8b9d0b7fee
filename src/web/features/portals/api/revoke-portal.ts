import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { portalPath, portalsKeys } from "./portals-keys";

/** Revokes a portal for good: its page takes no more uploads, and it cannot be resumed. */
export function useRevokePortalMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(portalPath(id), { method: "DELETE" }),
    onSuccess: (_data, id) => {
      const workspaceId = currentWorkspaceId();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: portalsKeys.list(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: portalsKeys.one(workspaceId, id) }),
      ]);
    },
  });
}
