import { createFileRoute } from "@tanstack/react-router";
import { WebhookDeliveriesPage } from "../../features/webhooks/webhook-deliveries-page";
import { parseDeliveriesSearch } from "../../features/webhooks/webhooks-search";
import { useSessionStore } from "../../stores/session-store";

export const Route = createFileRoute("/_app/webhooks/$webhookId")({
  validateSearch: parseDeliveriesSearch,
  component: function WebhookDeliveries() {
    const { webhookId } = Route.useParams();
    const search = Route.useSearch();
    const workspaceId = useSessionStore((s) => s.session?.workspaceId ?? "");
    return (
      <WebhookDeliveriesPage workspaceId={workspaceId} webhookId={webhookId} search={search} />
    );
  },
});
