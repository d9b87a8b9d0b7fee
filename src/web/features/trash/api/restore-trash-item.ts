import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import type { RestoreTrashResult } from "@/contract/files";
import { filesKeys } from "@/web/features/files";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { type BatchOutcome, runEach } from "./run-each";

/** A service older than the `path` and `renamed` extension members answers only `{ok}`. */
type RestoreAnswer = Ok & Partial<RestoreTrashResult>;

export interface RestoreOutcome extends BatchOutcome {
  /** Items that came back under another name, with the path they now have. */
  renamed: { id: string; path: string }[];
}

/** Puts trash items back where they were (the service picks a "(restored)" name on conflict). */
export function useRestoreTrashItemsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]): Promise<RestoreOutcome> => {
      const renamed: RestoreOutcome["renamed"] = [];
      const outcome = await runEach(ids, async (id) => {
        const answer = await apiRequest<RestoreAnswer>(
          workspacePath(`/files/trash/${encodeURIComponent(id)}/restore`),
          { method: "POST" },
        );
        if (answer.renamed === true && typeof answer.path === "string") {
          renamed.push({ id, path: answer.path });
        }
      });
      return { ...outcome, renamed };
    },
    // The whole files prefix: restored items reappear in folder listings and search, and the
    // trash list lives under it too.
    onSettled: () => {
      const workspaceId = currentWorkspaceId();
      return queryClient.invalidateQueries({ queryKey: filesKeys.all(workspaceId) });
    },
  });
}
