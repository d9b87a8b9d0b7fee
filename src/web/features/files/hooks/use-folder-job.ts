import { useQueryClient } from "@tanstack/react-query";
import type { BulkJob } from "@/contract/operations";
import { followBulkJob } from "@/web/features/jobs";
import { describeError } from "@/web/lib/api-client";
import { filesKeys } from "@/web/lib/query-keys/files";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { toast } from "@/web/stores/toast-store";

/** Minimum time between refreshes of the folder while a job empties it. */
const REFRESH_MS = 1_500;

/**
 * Follows a bulk job on a folder's entries: the folder shows its progress line, refreshes as the
 * counters move (so rows leave as the job goes) and once more at the end, then `onEnd` reports.
 */
export function useFolderJob(folder: string) {
  const queryClient = useQueryClient();
  return async (job: BulkJob, onEnd: (ended: BulkJob) => void) => {
    const workspaceId = currentWorkspaceId();
    let refreshed = 0;
    try {
      const ended = await followBulkJob(queryClient, workspaceId, job, {
        folder,
        onProgress: () => {
          if (Date.now() - refreshed < REFRESH_MS) return;
          refreshed = Date.now();
          void queryClient.invalidateQueries({ queryKey: filesKeys.folder(workspaceId, folder) });
        },
      });
      await queryClient.invalidateQueries({ queryKey: filesKeys.all(workspaceId) });
      onEnd(ended);
    } catch (error) {
      toast({
        title: "Lost track of the job; see Jobs",
        description: describeError(error),
        tone: "error",
      });
    }
  };
}
