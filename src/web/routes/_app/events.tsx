import { createFileRoute } from "@tanstack/react-router";
import { EventsPage } from "../../features/events/events-page";
import { parseEventsSearch } from "../../features/events/events-search";
import { useSessionStore } from "../../stores/session-store";

export const Route = createFileRoute("/_app/events")({
  validateSearch: parseEventsSearch,
  component: function Events() {
    const search = Route.useSearch();
    const workspaceId = useSessionStore((s) => s.session?.workspaceId ?? "");
    return <EventsPage workspaceId={workspaceId} search={search} />;
  },
});
