import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateOperationBody, Operation } from "@/contract/operations";
import { parentOf } from "@/contract/rules";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { invalidateFolders } from "@/web/lib/query-keys/files";
import { currentWorkspaceId } from "@/web/stores/session-store";

const finished = (job: Operation) =>
  job.status === "completed" || job.status === "failed" || job.status === "cancelled";

/** Between reads of a running job: quick at first (most moves take a moment), then easing off. */
const pollDelay = (attempt: number) => Math.min(400 * 1.5 ** attempt, 3000);

/**
 * The folders a job changes: the destination and its parent (which shows its item count), and
 * for a move the folders the items left.
 */
export function changedFolders(body: Pick<CreateOperationBody, "kind" | "paths" | "destination">) {
  const destination = body.destination ?? "";
  const folders = new Set([destination, parentOf(destination)]);
  if (body.kind === "move") for (const path of body.paths) folders.add(parentOf(path));
  return [...folders];
}

/**
 * Reads the job until it ends, then refreshes the folders it changed: a job that was only queued
 * when the request answered has changed nothing yet, so refreshing then would show the old list.
 */
async function watchOperation(
  queryClient: QueryClient,
  workspaceId: string,
  job: Operation,
  folders: string[],
) {
  let current = job;
  for (let attempt = 0; !finished(current); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, pollDelay(attempt)));
    current = await apiRequest<Operation>(
      `/workspaces/${encodeURIComponent(workspaceId)}/files/operations/${encodeURIComponent(current.id)}`,
    );
  }
  await invalidateFolders(queryClient, workspaceId, folders);
}

/**
 * Starts a move or copy job (row 16), then follows it in the background to refresh its folders
 * when it ends, wherever the person has gone meanwhile.
 */
export function useCreateOperationMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateOperationBody) =>
      apiRequest<Operation>(workspacePath("/files/operations"), { method: "POST", body }),
    onSuccess: (job, body) => {
      // Not awaited: the job may run for minutes. If reading it fails, the job centre's tracker
      // still refreshes the files lists when it sees the job end.
      void watchOperation(queryClient, currentWorkspaceId(), job, changedFolders(body)).catch(
        () => undefined,
      );
    },
  });
}
