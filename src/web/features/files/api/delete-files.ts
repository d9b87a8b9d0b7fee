import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import type { DeleteFilesBody } from "@/contract/files";
import { parentOf } from "@/contract/rules";
import { createBulkJob, finishedReport, followBulkJob, jobsKeys } from "@/web/features/jobs";
import { trashKeys } from "@/web/features/trash";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { DELETE_BATCH } from "../state/bulk-selection";
import { filesKeys } from "./files-keys";

/**
 * Trashes or deletes paths: one DELETE (all or nothing) up to what one request takes, and one
 * bulk job on the service beyond that, never a request per batch; resolves when it is done.
 */
export function useDeleteFilesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ paths, permanent }: { paths: string[]; permanent: boolean }) => {
      if (paths.length <= DELETE_BATCH) {
        const body: DeleteFilesBody = { paths, permanent };
        await apiRequest<Ok>(workspacePath("/files"), { method: "DELETE", body });
        return;
      }
      const job = await createBulkJob({
        action: permanent ? "delete" : "trash",
        selection: { paths },
      });
      const ended = await followBulkJob(queryClient, currentWorkspaceId(), job);
      if (ended.status !== "completed" || ended.failed > 0) {
        const report = finishedReport(ended);
        throw new Error([report.title, report.description].filter(Boolean).join(". "));
      }
    },
    // Settled, not success: a job that failed part way still changed what it reached.
    onSettled: (_data, _error, { paths }) => {
      const workspaceId = currentWorkspaceId();
      const folders = new Set(paths.map(parentOf));
      return Promise.all([
        ...[...folders].map((folder) =>
          queryClient.invalidateQueries({ queryKey: filesKeys.folder(workspaceId, folder) }),
        ),
        queryClient.invalidateQueries({ queryKey: filesKeys.searches(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: trashKeys.all(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: jobsKeys.all(workspaceId) }),
      ]);
    },
  });
}
