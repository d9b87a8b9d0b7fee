import { createFileRoute } from "@tanstack/react-router";
import { WebhookDeliveriesPage } from "@/web/features/webhooks/webhook-deliveries-page";
import { parseDeliveriesSearch } from "@/web/features/webhooks/webhooks-search";
import { useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/webhooks/$webhookId")({
  validateSearch: parseDeliveriesSearch,
  component: function WebhookDeliveries() {
    const { webhookId } = Route.useParams();
    const search = Route.useSearch();
    const workspaceId = useWorkspaceId();
    return (
      <WebhookDeliveriesPage workspaceId={workspaceId} webhookId={webhookId} search={search} />
    );
  },
});
