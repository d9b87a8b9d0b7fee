import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TrashItem } from "@/contract/files";
import type { BulkJob, CreateBulkJobBody } from "@/contract/operations";
import { followBulkJob, useAnnounceJob, useCreateBulkJobMutation } from "@/web/features/jobs";
import { filesKeys } from "@/web/lib/query-keys/files";
import { currentWorkspaceId } from "@/web/stores/session-store";

type TrashAction = "restore" | "purge";
type TrashSelection = Extract<CreateBulkJobBody, { action: TrashAction }>["selection"];

/**
 * Restores or purges a selection of the trash as one bulk job, and follows it to its end (the
 * page reports the outcome; the person may also watch it in the job centre).
 */
export function useTrashJob() {
  const queryClient = useQueryClient();
  const create = useCreateBulkJobMutation();
  const announce = useAnnounceJob();
  const [running, setRunning] = useState<TrashAction | null>(null);

  const run = async (
    action: TrashAction,
    selection: TrashSelection,
    items: TrashItem[],
  ): Promise<BulkJob> => {
    setRunning(action);
    try {
      const job = await create.mutateAsync(
        action === "restore" ? { action, selection } : { action, selection },
      );
      announce(job, job.total ?? items.length, items.length === 1 ? items[0]?.path : undefined);
      const workspaceId = currentWorkspaceId();
      const ended = await followBulkJob(queryClient, workspaceId, job);
      // Restored items are back in folders and search; the trash list lives under files too.
      await queryClient.invalidateQueries({ queryKey: filesKeys.all(workspaceId) });
      return ended;
    } finally {
      setRunning(null);
    }
  };
  return { run, running };
}
