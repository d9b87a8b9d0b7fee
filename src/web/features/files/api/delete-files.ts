import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import type { DeleteFilesBody } from "@/contract/files";
import { parentOf } from "@/contract/rules";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { invalidateFolders } from "@/web/lib/query-keys/files";
import { trashKeys } from "@/web/lib/query-keys/trash";
import { currentWorkspaceId } from "@/web/stores/session-store";

/**
 * Trashes or deletes up to DELETE_BATCH paths in one request (all or nothing). Anything bigger
 * is one bulk job (state/bulk-selection `needsJob`), never a request per batch.
 */
export function useDeleteFilesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeleteFilesBody) =>
      apiRequest<Ok>(workspacePath("/files"), { method: "DELETE", body }),
    onSuccess: (_data, { paths }) => {
      const workspaceId = currentWorkspaceId();
      return Promise.all([
        invalidateFolders(queryClient, workspaceId, paths.map(parentOf)),
        queryClient.invalidateQueries({ queryKey: trashKeys.all(workspaceId) }),
      ]);
    },
  });
}
