import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import { parentOf } from "@/contract/rules";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { filesKeys } from "@/web/lib/query-keys/files";
import { currentWorkspaceId } from "@/web/stores/session-store";

export function useRestoreVersionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ versionId }: { versionId: string; path: string }) =>
      apiRequest<Ok>(workspacePath(`/files/versions/${encodeURIComponent(versionId)}/restore`), {
        method: "POST",
      }),
    onSuccess: (_data, { path }) => {
      const workspaceId = currentWorkspaceId();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: filesKeys.versions(workspaceId, path) }),
        queryClient.invalidateQueries({ queryKey: filesKeys.folder(workspaceId, parentOf(path)) }),
        queryClient.invalidateQueries({ queryKey: filesKeys.searches(workspaceId) }),
      ]);
    },
  });
}
