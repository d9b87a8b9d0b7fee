import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import type { FileListing } from "@/contract/files";
import { parentOf } from "@/contract/rules";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { filesKeys } from "@/web/lib/query-keys/files";
import { currentWorkspaceId } from "@/web/stores/session-store";

/**
 * Creates the folder unless it is already there. The service answers 201 for an existing folder
 * (it creates like `mkdir -p`), so the console asks first: a cached listing may be stale or, in
 * a large folder, not hold the name at all. Any answer but a listing leaves it to the create,
 * whose error (a file in the way, say) is the one to show.
 */
export function useCreateFolderMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (path: string): Promise<{ existed: boolean }> => {
      const existed = await apiRequest<FileListing>(workspacePath("/files"), {
        query: { path, count: 1 },
      }).then(
        () => true,
        () => false,
      );
      if (!existed)
        await apiRequest<Ok>(workspacePath("/files/folder"), { method: "POST", body: { path } });
      return { existed };
    },
    // Also when it existed: the listing that did not show it is stale.
    onSuccess: (_data, path) => {
      const workspaceId = currentWorkspaceId();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: filesKeys.folder(workspaceId, parentOf(path)) }),
        queryClient.invalidateQueries({ queryKey: filesKeys.searches(workspaceId) }),
      ]);
    },
  });
}
