import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import { parentOf } from "@/contract/rules";
import { apiRequest, workspacePath } from "../../../lib/api-client";
import { useSessionStore } from "../../../stores/session-store";
import { filesKeys } from "./files-keys";

export function useCreateFolderMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (path: string) =>
      apiRequest<Ok>(workspacePath("/files/folder"), { method: "POST", body: { path } }),
    onSuccess: (_data, path) => {
      const workspaceId = useSessionStore.getState().session?.workspaceId ?? "";
      return queryClient.invalidateQueries({
        queryKey: filesKeys.folder(workspaceId, parentOf(path)),
      });
    },
  });
}
