import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Portal, PortalDetail, UpdatePortalBody } from "@/contract/portals";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { portalPath, portalsKeys } from "./portals-keys";

/** Edits a portal, or pauses and resumes it (`status`). */
export function useUpdatePortalMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdatePortalBody }) =>
      apiRequest<Portal>(portalPath(id), { method: "PATCH", body }),
    onSuccess: (portal) => {
      const workspaceId = currentWorkspaceId();
      // The answer is the portal without its uploads: keep the page's uploads meanwhile.
      queryClient.setQueryData<PortalDetail>(portalsKeys.one(workspaceId, portal.id), (old) =>
        old ? { ...old, ...portal, uploads: old.uploads } : old,
      );
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: portalsKeys.list(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: portalsKeys.one(workspaceId, portal.id) }),
      ]);
    },
  });
}
