import { createFileRoute } from "@tanstack/react-router";
import { SharesPage } from "@/web/features/shares/shares-page";
import type { RawSharesSearch } from "@/web/features/shares/shares-search";
import { useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/shares")({
  // Parsed by the page, not here: a route's validateSearch loads with every page (Files too),
  // and the console's first load has no bytes to spare.
  validateSearch: (search: Record<string, unknown>): RawSharesSearch => search,
  component: function Shares() {
    const search = Route.useSearch();
    const workspaceId = useWorkspaceId();
    return <SharesPage workspaceId={workspaceId} search={search} />;
  },
});
