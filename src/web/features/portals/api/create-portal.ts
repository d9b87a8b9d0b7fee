import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatePortalBody, Portal } from "@/contract/portals";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { portalsKeys, portalsPath } from "./portals-keys";

export function useCreatePortalMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePortalBody) =>
      apiRequest<Portal>(portalsPath(), { method: "POST", body }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: portalsKeys.list(currentWorkspaceId()) }),
  });
}
