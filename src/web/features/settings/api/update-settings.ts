import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { WorkspaceSettings } from "@/contract/settings";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { settingsKeys, settingsPath } from "./settings-keys";

export function useUpdateSettingsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string }) =>
      apiRequest<WorkspaceSettings>(settingsPath(), { method: "PATCH", body }),
    onSuccess: (settings) =>
      queryClient.setQueryData(settingsKeys.settings(currentWorkspaceId()), settings),
  });
}
