import { baseName } from "@/contract/rules";
import { useDeleteFilesMutation } from "@/web/features/files/api/delete-files";
import { emptySelection, selectPaths } from "@/web/features/files/state/selection";
import { useSelectionStore } from "@/web/features/files/state/selection-store";
import { useRestoreTrashedPathsMutation } from "@/web/features/trash";
import { describeError } from "@/web/lib/api-client";
import { formatCount } from "@/web/lib/format";
import { toast } from "@/web/stores/toast-store";

/** “name” for one path, “N items” for more. */
export const describeMany = (paths: string[]) =>
  paths.length === 1 ? `“${baseName(paths[0] ?? "")}”` : `${formatCount(paths.length)} items`;

/**
 * Undo restores one item per request (the service has no batch restore), and the service allows
 * 600 requests a minute per key, shared with the browsing around it: beyond this many, the
 * Trash page is the way back.
 */
const UNDO_LIMIT = 200;

/** Moves paths to the trash and offers Undo, which restores them and selects them again. */
export function useTrashWithUndo(scope: string) {
  const deleteFiles = useDeleteFilesMutation();
  const restoreTrashed = useRestoreTrashedPathsMutation();
  const setSelection = useSelectionStore((s) => s.set);

  const undo = (paths: string[], what: string) =>
    restoreTrashed.mutate(paths, {
      onSuccess: () => {
        setSelection(scope, selectPaths(paths));
        toast({ title: `Restored ${what}` });
      },
      onError: (error) =>
        toast({
          title: "Could not undo",
          description: `${describeError(error)} The items are in the trash.`,
          tone: "error",
        }),
    });

  return (paths: string[]) => {
    if (paths.length === 0) return;
    const what = describeMany(paths);
    deleteFiles.mutate(
      { paths, permanent: false },
      {
        onSuccess: () => {
          setSelection(scope, emptySelection);
          toast(
            paths.length > UNDO_LIMIT
              ? {
                  title: `Moved ${what} to the trash`,
                  description: `Undo is offered for up to ${UNDO_LIMIT} items: restore these from the Trash page.`,
                }
              : {
                  title: `Moved ${what} to the trash`,
                  action: { label: "Undo", onClick: () => undo(paths, what) },
                },
          );
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
}
