import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BulkJob } from "@/contract/operations";
import { parentOf } from "@/contract/rules";
import { createBulkJob, followBulkJob, jobsKeys } from "@/web/features/jobs";
import { invalidateFolders } from "@/web/lib/query-keys/files";
import { trashKeys } from "@/web/lib/query-keys/trash";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { trashListQueryOptions } from "./list-trash";

/**
 * Undo of a small "move to trash": the delete answers only `{ok}`, so the items are found in the
 * trash by original path (the newest item for each path, as the list is newest first) and
 * restored by one bulk job, which this follows to its end. Null when none is in the trash.
 */
export function useRestoreTrashedPathsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (paths: string[]): Promise<BulkJob | null> => {
      const workspaceId = currentWorkspaceId();
      const trash = await queryClient.fetchQuery({
        ...trashListQueryOptions(workspaceId),
        staleTime: 0,
      });
      const newest = new Map<string, string>();
      for (const item of trash) if (!newest.has(item.path)) newest.set(item.path, item.id);
      const itemIds = paths.flatMap((p) => newest.get(p) ?? []);
      if (itemIds.length === 0) return null;
      const job = await createBulkJob({ action: "restore", selection: { itemIds } });
      return followBulkJob(queryClient, workspaceId, job);
    },
    onSettled: (_data, _error, paths) => {
      const workspaceId = currentWorkspaceId();
      return Promise.all([
        invalidateFolders(queryClient, workspaceId, paths.map(parentOf)),
        queryClient.invalidateQueries({ queryKey: trashKeys.all(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: jobsKeys.all(workspaceId) }),
      ]);
    },
  });
}
