import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import type { RenameFileBody } from "@/contract/files";
import { parentOf } from "@/contract/rules";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { filesKeys } from "@/web/lib/query-keys/files";
import { currentWorkspaceId } from "@/web/stores/session-store";

export function useRenameFileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RenameFileBody) =>
      apiRequest<Ok>(workspacePath("/files"), { method: "PATCH", body }),
    onSuccess: (_data, { path }) => {
      const workspaceId = currentWorkspaceId();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: filesKeys.folder(workspaceId, parentOf(path)) }),
        queryClient.invalidateQueries({ queryKey: filesKeys.searches(workspaceId) }),
        // A folder's subtree moves with it, and its versions are keyed by the old path.
        queryClient.removeQueries({ queryKey: filesKeys.versions(workspaceId, path) }),
      ]);
    },
  });
}
