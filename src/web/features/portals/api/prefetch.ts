import type { QueryClient } from "@tanstack/react-query";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { parsePortalsSearch, type RawPortalsSearch, statusParam } from "../portals-search";
import { portalUploadsQueryOptions } from "./list-portal-uploads";
import { portalsQueryOptions } from "./list-portals";

/**
 * What `/portals` shows first, asked for while the page's code is still arriving (the route's
 * loader imports this module on demand, so none of it enters another page's first load). The
 * queue opened with thousands waiting shows its first rows sooner by that much.
 */
export function prefetchPortals(queryClient: QueryClient, raw: RawPortalsSearch) {
  const workspaceId = currentWorkspaceId();
  const search = parsePortalsSearch(raw);
  void queryClient.prefetchQuery(portalsQueryOptions(workspaceId));
  if (search.view === "review")
    void queryClient.prefetchInfiniteQuery(
      portalUploadsQueryOptions(workspaceId, {
        portalId: search.portalId,
        status: statusParam(search.status),
      }),
    );
}
