import { workspacePath } from "@/web/lib/api-client";

export const settingsKeys = {
  all: (workspaceId: string) => ["settings", workspaceId] as const,
  settings: (workspaceId: string) => [...settingsKeys.all(workspaceId), "settings"] as const,
  /** The logo's bytes, keyed by when it changed, so a new logo is a new query. */
  logo: (workspaceId: string, updatedAt: string) =>
    [...settingsKeys.all(workspaceId), "logo", updatedAt] as const,
};

export const settingsPath = (rest = "") => workspacePath(`/settings${rest}`);
