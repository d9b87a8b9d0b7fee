import { useNavigate } from "@tanstack/react-router";
import { InboxIcon, PlusIcon } from "lucide-react";
import { useState } from "react";
import { formatCount } from "@/browser/format";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { usePortalsQuery } from "./api/list-portals";
import { PortalFormDialog } from "./components/portal-form-dialog";
import { PortalsTable } from "./components/portals-table";
import { ReviewQueueView } from "./components/review-queue-view";
import { PortalPage } from "./portal-page";
import {
  type PortalsSearch,
  parsePortalsSearch,
  portalsSearchParams,
  type RawPortalsSearch,
} from "./portals-search";

/** Every portal of the workspace, the review queue across them, or one portal, as the address says. */
export function PortalsPage({
  workspaceId,
  search: raw,
}: {
  workspaceId: string;
  search: RawPortalsSearch;
}) {
  const search = parsePortalsSearch(raw);
  // Keyed: another portal is another page (its queue's cursor starts afresh).
  if (search.portal)
    return <PortalPage key={search.portal} workspaceId={workspaceId} portalId={search.portal} />;
  return <PortalsIndex workspaceId={workspaceId} search={search} />;
}

function PortalsIndex({ workspaceId, search }: { workspaceId: string; search: PortalsSearch }) {
  const navigate = useNavigate({ from: "/portals/" });
  const portals = usePortalsQuery(workspaceId);
  const [creating, setCreating] = useState(false);
  const awaiting = portals.data?.reduce((n, p) => n + p.awaitingReview, 0) ?? 0;
  const setSearch = (next: PortalsSearch, replace = false) =>
    void navigate({ search: portalsSearchParams(next), replace });

  const newButton = (
    <Button onClick={() => setCreating(true)}>
      <PlusIcon aria-hidden="true" />
      New portal
    </Button>
  );

  return (
    <div className="flex min-h-0 flex-1 flex-col max-md:overflow-auto">
      <PageHeader
        title="Portals"
        description="Pages where clients upload files to you, and what they sent, to review."
        actions={newButton}
      />
      <Tabs
        value={search.view}
        onValueChange={(view) =>
          setSearch({ ...search, view: view === "review" ? "review" : "list" })
        }
        className="flex min-h-0 flex-1 flex-col"
      >
        <TabsList aria-label="Portals sections" className="mx-4 mt-3 self-start">
          <TabsTrigger value="list">Portals</TabsTrigger>
          <TabsTrigger value="review">
            Review queue
            {awaiting > 0 && (
              <Badge className="ml-1.5">
                {formatCount(awaiting)}
                <span className="sr-only"> waiting</span>
              </Badge>
            )}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="list" className="flex min-h-0 flex-1 flex-col p-4">
          {portals.isError ? (
            <LoadError
              title="Could not load the portals"
              error={portals.error}
              onRetry={() => void portals.refetch()}
            />
          ) : (
            <PortalsTable
              portals={portals.data ?? []}
              loading={portals.isPending}
              empty={
                <EmptyState icon={InboxIcon} title="No portals yet" action={newButton}>
                  A portal is a page where a client uploads files to you, without an account: each
                  upload lands in a folder of its own, for you to approve or reject.
                </EmptyState>
              }
            />
          )}
        </TabsContent>
        <TabsContent value="review" className="flex min-h-0 flex-1 flex-col pt-3">
          <ReviewQueueView
            workspaceId={workspaceId}
            search={search}
            portals={portals.data ?? []}
            onSearch={(next) => setSearch(next, true)}
          />
        </TabsContent>
      </Tabs>
      {creating && <PortalFormDialog onClose={() => setCreating(false)} />}
    </div>
  );
}
