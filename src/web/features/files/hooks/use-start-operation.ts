import type { CreateOperationBody, OperationConflict } from "@/contract/operations";
import { useCreateOperationMutation } from "@/web/features/files/api/create-operation";
import { conflictsOf } from "@/web/features/files/state/conflict-resolutions";
import { useAnnounceJob } from "@/web/features/jobs";

/**
 * Starts a move or copy: a toast links to the job in the job centre (announcing it also tells
 * the shell, which reports how it ended, however quick the job). A refusal for conflicts goes to
 * `onConflicts` (the conflict dialog) and answers "conflicts"; any other refusal is thrown for
 * the caller to show where the person acted.
 */
export function useStartOperation(
  onConflicts: (body: CreateOperationBody, conflicts: OperationConflict[]) => void,
) {
  const create = useCreateOperationMutation();
  const announce = useAnnounceJob();
  return async (body: CreateOperationBody): Promise<"started" | "conflicts"> => {
    try {
      const job = await create.mutateAsync(body);
      announce(job, body.paths.length, body.paths.length === 1 ? body.paths[0] : undefined);
      return "started";
    } catch (error) {
      const conflicts = conflictsOf(error);
      if (!conflicts?.length) throw error;
      onConflicts(body, conflicts);
      return "conflicts";
    }
  };
}
