import { createFileRoute } from "@tanstack/react-router";
import { EventsPage } from "@/web/features/events/events-page";
import type { RawEventsSearch } from "@/web/features/events/events-search";
import { useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/events")({
  // Parsed by the page, not here: a route's validateSearch loads with every page (Files too),
  // and this one would bring the event catalogue with it.
  validateSearch: (search: Record<string, unknown>): RawEventsSearch => search,
  component: function Events() {
    const search = Route.useSearch();
    const workspaceId = useWorkspaceId();
    return <EventsPage workspaceId={workspaceId} search={search} />;
  },
});
