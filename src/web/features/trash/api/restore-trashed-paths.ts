import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import { parentOf } from "@/contract/rules";
import { filesKeys } from "@/web/features/files";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { trashListQueryOptions } from "./list-trash";
import { trashKeys } from "./trash-keys";

/**
 * Undo of "move to trash": the delete answers only `{ok}`, so the items are found in the trash
 * by original path (the newest item for each path, as the list is newest first) and restored.
 */
export function useRestoreTrashedPathsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (paths: string[]) => {
      const workspaceId = currentWorkspaceId();
      const trash = await queryClient.fetchQuery({
        ...trashListQueryOptions(workspaceId),
        staleTime: 0,
      });
      const newest = new Map<string, string>();
      for (const item of trash) if (!newest.has(item.path)) newest.set(item.path, item.id);
      const ids = paths.flatMap((p) => newest.get(p) ?? []);
      for (const id of ids) {
        await apiRequest<Ok>(workspacePath(`/files/trash/${encodeURIComponent(id)}/restore`), {
          method: "POST",
        });
      }
      return ids.length;
    },
    onSettled: (_data, _error, paths) => {
      const workspaceId = currentWorkspaceId();
      return Promise.all([
        ...[...new Set(paths.map(parentOf))].map((folder) =>
          queryClient.invalidateQueries({ queryKey: filesKeys.folder(workspaceId, folder) }),
        ),
        queryClient.invalidateQueries({ queryKey: filesKeys.searches(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: trashKeys.all(workspaceId) }),
      ]);
    },
  });
}
