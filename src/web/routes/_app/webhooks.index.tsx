import { createFileRoute } from "@tanstack/react-router";
import { WebhooksPage } from "@/web/features/webhooks/webhooks-page";
import { parseWebhooksSearch } from "@/web/features/webhooks/webhooks-search";
import { useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/webhooks/")({
  validateSearch: parseWebhooksSearch,
  component: function Webhooks() {
    const search = Route.useSearch();
    const workspaceId = useWorkspaceId();
    return <WebhooksPage workspaceId={workspaceId} search={search} />;
  },
});
