import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Ok } from "@/contract/common";
import { apiRequest, workspacePath } from "../../../lib/api-client";
import { useSessionStore } from "../../../stores/session-store";
import { filesKeys } from "./files-keys";

export function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

export function joinPath(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

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
