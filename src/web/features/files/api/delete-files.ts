import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import type { DeleteFilesBody } from "@/contract/files";
import { parentOf } from "@/contract/rules";
import { trashKeys } from "@/web/features/trash";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { filesKeys } from "./files-keys";

/** The service takes at most this many paths per request (each request is all or nothing). */
export const DELETE_BATCH = 500;

export function useDeleteFilesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ paths, permanent }: { paths: string[]; permanent: boolean }) => {
      for (let i = 0; i < paths.length; i += DELETE_BATCH) {
        const body: DeleteFilesBody = { paths: paths.slice(i, i + DELETE_BATCH), permanent };
        await apiRequest<Ok>(workspacePath("/files"), { method: "DELETE", body });
      }
    },
    // Settled, not success: a later batch failing still leaves the earlier ones deleted.
    onSettled: (_data, _error, { paths }) => {
      const workspaceId = currentWorkspaceId();
      const folders = new Set(paths.map(parentOf));
      return Promise.all([
        ...[...folders].map((folder) =>
          queryClient.invalidateQueries({ queryKey: filesKeys.folder(workspaceId, folder) }),
        ),
        queryClient.invalidateQueries({ queryKey: filesKeys.searches(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: trashKeys.all(workspaceId) }),
      ]);
    },
  });
}
