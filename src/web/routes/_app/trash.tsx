import { createFileRoute } from "@tanstack/react-router";
import { trashListQueryOptions } from "@/web/features/trash";
import { TrashPage } from "@/web/features/trash/trash-page";
import { currentWorkspaceId, useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/trash")({
  // Starts the request while the route's code loads; the page shows its own errors.
  loader: ({ context }) => {
    const workspaceId = currentWorkspaceId();
    void context.queryClient.prefetchQuery(trashListQueryOptions(workspaceId));
  },
  component: function Trash() {
    const workspaceId = useWorkspaceId();
    return <TrashPage workspaceId={workspaceId} />;
  },
});
