import { createFileRoute } from "@tanstack/react-router";
import { TransfersPage } from "@/web/features/transfers/transfers-page";
import { parseTransfersSearch } from "@/web/features/transfers/transfers-search";
import { useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/transfers")({
  validateSearch: parseTransfersSearch,
  component: function Transfers() {
    const search = Route.useSearch();
    const workspaceId = useWorkspaceId();
    return <TransfersPage workspaceId={workspaceId} search={search} />;
  },
});
