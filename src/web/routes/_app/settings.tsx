import { createFileRoute } from "@tanstack/react-router";
import { SettingsPage } from "@/web/features/settings/settings-page";
import { useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/settings")({
  component: function Settings() {
    return <SettingsPage workspaceId={useWorkspaceId()} />;
  },
});
