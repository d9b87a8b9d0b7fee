import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { settingsKeys, settingsPath } from "./settings-keys";

export function useDeleteLogoMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(settingsPath("/logo"), { method: "DELETE" }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: settingsKeys.settings(currentWorkspaceId()) }),
  });
}
