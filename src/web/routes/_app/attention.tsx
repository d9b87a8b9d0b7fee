import { createFileRoute } from "@tanstack/react-router";
import { AttentionPage } from "@/web/features/attention/attention-page";
import { useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/attention")({
  component: function Attention() {
    return <AttentionPage workspaceId={useWorkspaceId()} />;
  },
});
