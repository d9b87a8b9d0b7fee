import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { RenameBatchBody, RenameBatchResult, RenamePattern } from "@/contract/operations";
import { parentOf } from "@/contract/rules";
import { apiRequest } from "@/web/lib/api-client";
import { filesKeys, invalidateFolders } from "@/web/lib/query-keys/files";
import { currentWorkspaceId } from "@/web/stores/session-store";

const renameBatchPath = (workspaceId: string) =>
  `/workspaces/${encodeURIComponent(workspaceId)}/files/rename-batch`;

/**
 * The dry run of a batch rename (row 19) as a query keyed by the pattern: while the pattern is
 * typed each new key makes the previous run unused, and React Query aborts it through `signal`,
 * so a slow stale answer can never overwrite the preview of what is in the form now.
 */
export const renamePreviewQueryOptions = (
  workspaceId: string,
  paths: string[],
  pattern: RenamePattern,
) =>
  queryOptions({
    queryKey: [...filesKeys.all(workspaceId), "rename-preview", { paths, pattern }] as const,
    queryFn: ({ signal }) =>
      apiRequest<RenameBatchResult>(renameBatchPath(workspaceId), {
        method: "POST",
        body: { paths, pattern, dryRun: true } satisfies RenameBatchBody,
        signal,
      }),
    // A plan describes the tree as it was: never shown from the cache once the dialog closed.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/** Applies a previewed plan; the service refuses with `plan_stale` if the tree changed since. */
export function useRenameBatchMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RenameBatchBody & { planId: string }) =>
      apiRequest<RenameBatchResult>(renameBatchPath(currentWorkspaceId()), {
        method: "POST",
        body: { ...body, dryRun: false },
      }),
    onSuccess: (_data, { paths }) => {
      return invalidateFolders(queryClient, currentWorkspaceId(), paths.map(parentOf));
    },
  });
}
