import { createFileRoute } from "@tanstack/react-router";
import { PortalsPage } from "@/web/features/portals/portals-page";
import type { RawPortalsSearch } from "@/web/features/portals/portals-search";
import { useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/portals/")({
  // Parsed by the page, not here: a route's validateSearch loads with every page (Files too),
  // and the console's first load has no bytes to spare.
  validateSearch: (search: Record<string, unknown>): RawPortalsSearch => search,
  loaderDeps: ({ search }) => ({ search }),
  // Starts the requests while the page's code loads; imported on demand for the same reason.
  // The page shows its own errors.
  loader: ({ context, deps }) => {
    import("@/web/features/portals/api/prefetch").then(
      (m) => m.prefetchPortals(context.queryClient, deps.search),
      () => undefined,
    );
  },
  component: function Portals() {
    const search = Route.useSearch();
    const workspaceId = useWorkspaceId();
    return <PortalsPage workspaceId={workspaceId} search={search} />;
  },
});
