import { useNavigate } from "@tanstack/react-router";
import type { CreateOperationBody, OperationConflict } from "@/contract/operations";
import { useCreateOperationMutation } from "@/web/features/files/api/create-operation";
import { conflictsOf } from "@/web/features/files/state/conflict-resolutions";
import { toast } from "@/web/stores/toast-store";
import { describeMany } from "./use-trash-with-undo";

/**
 * Starts a move or copy: a toast links to the job in the job centre (whose tracker reports how it
 * ended). A refusal for conflicts goes to `onConflicts` (the conflict dialog) and answers
 * "conflicts"; any other refusal is thrown for the caller to show where the person acted.
 */
export function useStartOperation(
  onConflicts: (body: CreateOperationBody, conflicts: OperationConflict[]) => void,
) {
  const create = useCreateOperationMutation();
  const navigate = useNavigate();
  return async (body: CreateOperationBody): Promise<"started" | "conflicts"> => {
    try {
      const job = await create.mutateAsync(body);
      toast({
        title: `${body.kind === "move" ? "Moving" : "Copying"} ${describeMany(body.paths)}…`,
        action: {
          label: "View job",
          onClick: () => void navigate({ href: `/jobs?job=${encodeURIComponent(job.id)}` }),
        },
      });
      return "started";
    } catch (error) {
      const conflicts = conflictsOf(error);
      if (!conflicts?.length) throw error;
      onConflicts(body, conflicts);
      return "conflicts";
    }
  };
}
