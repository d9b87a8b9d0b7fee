import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { WorkspaceSettings } from "@/contract/settings";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { settingsKeys, settingsPath } from "./settings-keys";

export function usePutLogoMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: Blob) =>
      apiRequest<WorkspaceSettings>(settingsPath("/logo"), { method: "PUT", body: file }),
    onSuccess: (settings) =>
      queryClient.setQueryData(settingsKeys.settings(currentWorkspaceId()), settings),
  });
}
