import { useQueryClient } from "@tanstack/react-query";
import type { CreateOperationBody } from "@/contract/operations";
import { OPERATION_ITEMS_MAX } from "@/contract/rules";
import { pickedFromDrop, uploadPicked } from "@/web/features/transfers";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";
import type { DropFiles, DropOnto } from "./use-drag-move";
import { useStartOperation } from "./use-start-operation";

/**
 * Moves and copies started from the Files page (its dialogs, a drop of items: Alt copies), and
 * files dropped from outside, which upload.
 */
export function usePageOperations({
  workspaceId,
  selectedUpTo,
  onConflicts,
  onStarted,
}: {
  workspaceId: string;
  /** The selected paths, unless there are more than a request takes (then it says so). */
  selectedUpTo(max: number, verb: string): Promise<string[]>;
  onConflicts: Parameters<typeof useStartOperation>[0];
  /** The job is queued (not refused for conflicts). */
  onStarted(body: CreateOperationBody): void;
}) {
  const queryClient = useQueryClient();
  const startOperation = useStartOperation(onConflicts);
  const onStartOperation = async (body: CreateOperationBody) => {
    if ((await startOperation(body)) === "started") onStarted(body);
  };
  const onDropOnto: DropOnto = async (items, destination, copy) => {
    const verb = copy ? "Copy" : "Move";
    const paths =
      items === "selection" ? await selectedUpTo(OPERATION_ITEMS_MAX, verb) : [...items];
    if (paths.length === 0) return;
    await onStartOperation({ kind: copy ? "copy" : "move", paths, destination }).catch((error) =>
      toast({
        title: `Could not ${verb.toLowerCase()} there`,
        description: describeError(error),
        tone: "error",
      }),
    );
  };

  // The drop's items are read now, during the event; the upload starts once folders are walked.
  const onDropFiles: DropFiles = (destination, dataTransfer) =>
    void pickedFromDrop(dataTransfer).then((picked) =>
      uploadPicked({ queryClient, workspaceId, folder: destination, picked }),
    );

  return { onStartOperation, onDropOnto, onDropFiles };
}
