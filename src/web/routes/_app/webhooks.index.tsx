import { createFileRoute } from "@tanstack/react-router";
import { WebhooksPage } from "../../features/webhooks/webhooks-page";
import { parseWebhooksSearch } from "../../features/webhooks/webhooks-search";
import { useSessionStore } from "../../stores/session-store";

export const Route = createFileRoute("/_app/webhooks/")({
  validateSearch: parseWebhooksSearch,
  component: function Webhooks() {
    const search = Route.useSearch();
    const workspaceId = useSessionStore((s) => s.session?.workspaceId ?? "");
    return <WebhooksPage workspaceId={workspaceId} search={search} />;
  },
});
