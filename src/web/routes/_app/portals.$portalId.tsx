import { createFileRoute } from "@tanstack/react-router";
import { PortalPage } from "@/web/features/portals/portal-page";
import { useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/portals/$portalId")({
  component: function Portal() {
    const { portalId } = Route.useParams();
    const workspaceId = useWorkspaceId();
    // Keyed: another portal is another page (its queue's cursor starts afresh).
    return <PortalPage key={portalId} workspaceId={workspaceId} portalId={portalId} />;
  },
});
