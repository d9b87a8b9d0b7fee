import { formatCount } from "@/browser/format";
import type { BulkJob } from "@/contract/operations";
import { BULK_PATHS_MAX, baseName } from "@/contract/rules";
import { useDeleteFilesMutation } from "@/web/features/files/api/delete-files";
import { bulkEntrySelection, needsJob } from "@/web/features/files/state/bulk-selection";
import { emptySelection, type Selection, selectPaths } from "@/web/features/files/state/selection";
import { useSelectionStore } from "@/web/features/files/state/selection-store";
import {
  finishedReport,
  useAnnounceJob,
  useCreateBulkJobMutation,
  useUndoBulkJobMutation,
} from "@/web/features/jobs";
import { useRestoreTrashedPathsMutation } from "@/web/features/trash";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";
import { useFolderJob } from "./use-folder-job";

/** “name” for one path, “N items” for more. */
export const describeMany = (paths: string[]) =>
  paths.length === 1 ? `“${baseName(paths[0] ?? "")}”` : `${formatCount(paths.length)} items`;

/**
 * Moves a folder's selection to the trash and offers Undo. A small selection is one DELETE;
 * a big one (or "select all") is one bulk job, which the folder shows as it goes, and whose
 * Undo is one request too.
 */
export function useTrashWithUndo(scope: string, folder: string) {
  const deleteFiles = useDeleteFilesMutation();
  const restoreTrashed = useRestoreTrashedPathsMutation();
  const createJob = useCreateBulkJobMutation();
  const undoJob = useUndoBulkJobMutation();
  const announce = useAnnounceJob();
  const follow = useFolderJob(folder);
  const setSelection = useSelectionStore((s) => s.set);

  const failedToUndo = (error: unknown) =>
    toast({
      title: "Could not undo",
      description: `${describeError(error)} The items are in the trash.`,
      tone: "error",
    });

  const undoPaths = (paths: string[], what: string) =>
    restoreTrashed.mutate(paths, {
      onSuccess: (job) => {
        if (job && job.failed > 0) return toast(finishedReport(job));
        setSelection(scope, selectPaths(paths));
        toast({ title: `Restored ${what}` });
      },
      onError: failedToUndo,
    });

  const undoJobOf = (trashJob: BulkJob) =>
    undoJob.mutate(trashJob.id, {
      onSuccess: (restore) => {
        announce(restore, trashJob.done);
        void follow(restore, (ended) => toast(finishedReport(ended)));
      },
      onError: failedToUndo,
    });

  const trashWithJob = (selection: Selection, count: number) => {
    const target = bulkEntrySelection(selection, folder);
    if (!target) {
      toast({
        title: `Too many items picked one by one (${formatCount(count)})`,
        description: `Up to ${formatCount(BULK_PATHS_MAX)} go at once; use Select all for more.`,
        tone: "error",
      });
      return;
    }
    createJob.mutate(
      { action: "trash", selection: target },
      {
        onSuccess: (job) => {
          setSelection(scope, emptySelection);
          announce(job, count);
          void follow(job, (ended) =>
            toast({
              ...finishedReport(ended),
              action: ended.undoable
                ? { label: "Undo", onClick: () => undoJobOf(ended) }
                : undefined,
            }),
          );
        },
        onError: (error) =>
          toast({
            title: `Could not move ${formatCount(count)} items to the trash`,
            description: describeError(error),
            tone: "error",
          }),
      },
    );
  };

  const trashPaths = (paths: string[]) => {
    const what = describeMany(paths);
    deleteFiles.mutate(
      { paths, permanent: false },
      {
        onSuccess: () => {
          setSelection(scope, emptySelection);
          toast({
            title: `Moved ${what} to the trash`,
            action: { label: "Undo", onClick: () => undoPaths(paths, what) },
          });
        },
        onError: (error) =>
          toast({
            title: `Could not move ${what} to the trash`,
            description: describeError(error),
            tone: "error",
          }),
      },
    );
  };

  /** `count` is how many the selection holds (the folder's total less the exceptions). */
  return (selection: Selection, count: number) => {
    if (count === 0) return;
    if (needsJob(selection)) trashWithJob(selection, count);
    else if (selection.mode === "some") trashPaths([...selection.ids]);
  };
}
