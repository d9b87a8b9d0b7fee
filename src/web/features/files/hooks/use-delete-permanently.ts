import { formatCount } from "@/browser/format";
import { useDeleteFilesMutation } from "@/web/features/files/api/delete-files";
import { bulkEntrySelection, needsJob } from "@/web/features/files/state/bulk-selection";
import { emptySelection, type Selection } from "@/web/features/files/state/selection";
import { useSelectionStore } from "@/web/features/files/state/selection-store";
import { finishedReport, useAnnounceJob, useCreateBulkJobMutation } from "@/web/features/jobs";
import { toast } from "@/web/stores/toast-store";
import { useFolderJob } from "./use-folder-job";
import { describeMany } from "./use-trash-with-undo";

/** What the confirmation dialog asks about, and what it runs once confirmed. */
export interface DeleteTarget {
  count: number;
  /** The single item's name, when there is one. */
  name: string | null;
  run(): Promise<void>;
}

/**
 * Deletes a folder's selection for good: one DELETE when it is small, else one bulk job ("select
 * all" goes as the folder less its exceptions, never as every path). The dialog closes once the
 * job has started; the folder shows it going and a toast says how it ended.
 */
export function useDeletePermanently(scope: string, folder: string) {
  const deleteFiles = useDeleteFilesMutation();
  const createJob = useCreateBulkJobMutation();
  const announce = useAnnounceJob();
  const follow = useFolderJob(folder);
  const setSelection = useSelectionStore((s) => s.set);

  return async (selection: Selection, count: number) => {
    if (!needsJob(selection) && selection.mode === "some") {
      const paths = [...selection.ids];
      await deleteFiles.mutateAsync({ paths, permanent: true });
      setSelection(scope, emptySelection);
      toast({ title: `Deleted ${describeMany(paths)} permanently` });
      return;
    }
    const target = bulkEntrySelection(selection, folder);
    if (!target)
      throw new Error(`Too many items picked one by one (${formatCount(count)}); use Select all.`);
    const job = await createJob.mutateAsync({ action: "delete", selection: target });
    setSelection(scope, emptySelection);
    announce(job, count);
    void follow(job, (ended) => toast(finishedReport(ended)));
  };
}
