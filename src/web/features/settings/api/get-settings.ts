import { useQuery } from "@tanstack/react-query";
import type { WorkspaceSettings } from "@/contract/settings";
import { apiRequest } from "@/web/lib/api-client";
import { settingsKeys, settingsPath } from "./settings-keys";

export function useSettingsQuery(workspaceId: string) {
  return useQuery({
    queryKey: settingsKeys.settings(workspaceId),
    queryFn: ({ signal }) => apiRequest<WorkspaceSettings>(settingsPath(), { signal }),
  });
}
