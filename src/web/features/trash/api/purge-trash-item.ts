import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { runEach } from "./run-each";
import { trashKeys } from "./trash-keys";

/** Deletes trash items for good; live files are untouched, so only the trash is refetched. */
export function usePurgeTrashItemsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      runEach(ids, (id) =>
        apiRequest<Ok>(workspacePath(`/files/trash/${encodeURIComponent(id)}`), {
          method: "DELETE",
        }),
      ),
    onSettled: () => {
      const workspaceId = currentWorkspaceId();
      return queryClient.invalidateQueries({ queryKey: trashKeys.all(workspaceId) });
    },
  });
}
