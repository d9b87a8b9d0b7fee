import { createFileRoute } from "@tanstack/react-router";
import { trashListQueryOptions } from "@/web/features/trash";
import { parseTrashSearch } from "@/web/features/trash/trash-filter";
import { TrashPage } from "@/web/features/trash/trash-page";
import { currentWorkspaceId, useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/trash")({
  validateSearch: parseTrashSearch,
  // Starts the request while the route's code loads; the page shows its own errors.
  loader: ({ context }) => {
    const workspaceId = currentWorkspaceId();
    void context.queryClient.prefetchQuery(trashListQueryOptions(workspaceId));
  },
  component: function Trash() {
    const search = Route.useSearch();
    const workspaceId = useWorkspaceId();
    return <TrashPage workspaceId={workspaceId} search={search} />;
  },
});
