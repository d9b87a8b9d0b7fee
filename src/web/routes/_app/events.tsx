import { createFileRoute } from "@tanstack/react-router";
import { EventsPage } from "@/web/features/events/events-page";
import { parseEventsSearch } from "@/web/features/events/events-search";
import { useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/events")({
  validateSearch: parseEventsSearch,
  component: function Events() {
    const search = Route.useSearch();
    const workspaceId = useWorkspaceId();
    return <EventsPage workspaceId={workspaceId} search={search} />;
  },
});
