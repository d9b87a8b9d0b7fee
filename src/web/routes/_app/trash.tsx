import { createFileRoute } from "@tanstack/react-router";
import { trashListQueryOptions } from "../../features/trash/api/list-trash";
import { TrashPage } from "../../features/trash/trash-page";
import { useSessionStore } from "../../stores/session-store";

export const Route = createFileRoute("/_app/trash")({
  // Starts the request while the route's code loads; the page shows its own errors.
  loader: ({ context }) => {
    const workspaceId = useSessionStore.getState().session?.workspaceId ?? "";
    void context.queryClient.prefetchQuery(trashListQueryOptions(workspaceId));
  },
  component: function Trash() {
    const workspaceId = useSessionStore((s) => s.session?.workspaceId ?? "");
    return <TrashPage workspaceId={workspaceId} />;
  },
});
