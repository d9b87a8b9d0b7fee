import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import { parentOf } from "@/contract/rules";
import { apiRequest, workspacePath } from "../../../lib/api-client";
import { useSessionStore } from "../../../stores/session-store";
import { filesKeys } from "./files-keys";
import { trashQueryOptions } from "./list-trash";

/**
 * Undo of "move to trash": the delete answers only `{ok}`, so the items are found in the trash
 * by original path (the newest item for each path, as the list is newest first) and restored.
 */
export function useRestoreTrashedPathsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (paths: string[]) => {
      const workspaceId = useSessionStore.getState().session?.workspaceId ?? "";
      const trash = await queryClient.fetchQuery({
        ...trashQueryOptions(workspaceId),
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
      const workspaceId = useSessionStore.getState().session?.workspaceId ?? "";
      return Promise.all([
        ...[...new Set(paths.map(parentOf))].map((folder) =>
          queryClient.invalidateQueries({ queryKey: filesKeys.folder(workspaceId, folder) }),
        ),
        queryClient.invalidateQueries({ queryKey: filesKeys.searches(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: filesKeys.trash(workspaceId) }),
      ]);
    },
  });
}
