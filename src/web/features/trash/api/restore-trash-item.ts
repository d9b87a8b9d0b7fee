import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import { filesKeys } from "@/web/features/files";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { runEach } from "./run-each";

/** Puts trash items back where they were (the service picks a "(restored)" name on conflict). */
export function useRestoreTrashItemsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      runEach(ids, (id) =>
        apiRequest<Ok>(workspacePath(`/files/trash/${encodeURIComponent(id)}/restore`), {
          method: "POST",
        }),
      ),
    // The whole files prefix: restored items reappear in folder listings and search, and the
    // trash list lives under it too.
    onSettled: () => {
      const workspaceId = currentWorkspaceId();
      return queryClient.invalidateQueries({ queryKey: filesKeys.all(workspaceId) });
    },
  });
}
