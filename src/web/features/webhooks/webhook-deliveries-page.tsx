import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeftIcon, InboxIcon } from "lucide-react";
import { useCallback } from "react";
import { ApiError } from "@/browser/api-error";
import { formatDateTime } from "@/browser/format";
import { streamEventTypes } from "@/contract/event-catalogue";
import { EmptyState } from "@/web/components/empty-state";
import { EventTypeOptions } from "@/web/components/event-type-options";
import { LoadError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { Button } from "@/web/components/ui/button";
import { FormField } from "@/web/components/ui/form-field";
import { NativeSelect } from "@/web/components/ui/native-select";
import { describeError } from "@/web/lib/api-client";
import { useNow } from "@/web/lib/use-now";
import { useWebhookQuery } from "./api/get-webhook";
import { useDeliveriesQuery } from "./api/list-deliveries";
import { DeliveryDrawer } from "./components/delivery-drawer";
import { DeliveryList } from "./components/delivery-list";
import { DisabledBanner } from "./components/disabled-banner";
import { EndpointActions } from "./components/endpoint-actions";
import { EndpointStatus, FailureCount } from "./components/endpoint-table";
import { endpointNextRetry, HELD_REASON } from "./delivery-timing";
import type { DeliveriesSearch } from "./webhooks-search";

function Filters({ search }: { search: DeliveriesSearch }) {
  const navigate = useNavigate({ from: "/webhooks/$webhookId" });
  const set = (patch: Partial<DeliveriesSearch>) =>
    navigate({ search: (s) => ({ ...s, ...patch, delivery: undefined }), replace: true });
  return (
    <search aria-label="Filter the deliveries" className="flex flex-wrap items-end gap-3">
      <FormField label="Status" className="min-w-0 flex-[1_1_7rem] sm:flex-none">
        {(control) => (
          <NativeSelect
            {...control}
            value={search.status ?? ""}
            onChange={(e) =>
              set({ status: (e.target.value || undefined) as DeliveriesSearch["status"] })
            }
          >
            <option value="">Any status</option>
            <option value="pending">Pending</option>
            <option value="delivered">Delivered</option>
            <option value="failed">Failed</option>
          </NativeSelect>
        )}
      </FormField>
      <FormField label="Event type" className="min-w-0 flex-[2_1_12rem] sm:flex-none">
        {(control) => (
          <NativeSelect
            {...control}
            value={search.type ?? ""}
            onChange={(e) => set({ type: e.target.value || undefined })}
          >
            <option value="">Any type</option>
            <EventTypeOptions types={streamEventTypes} />
          </NativeSelect>
        )}
      </FormField>
      <FormField label="Created" className="min-w-0 flex-[1_1_7rem] sm:flex-none">
        {(control) => (
          <NativeSelect
            {...control}
            value={search.window ?? ""}
            onChange={(e) =>
              set({ window: (e.target.value || undefined) as DeliveriesSearch["window"] })
            }
          >
            <option value="">Any time</option>
            <option value="1h">In the last hour</option>
            <option value="24h">In the last 24 hours</option>
            <option value="7d">In the last 7 days</option>
          </NativeSelect>
        )}
      </FormField>
    </search>
  );
}

export function WebhookDeliveriesPage({
  workspaceId,
  webhookId,
  search,
}: {
  workspaceId: string;
  webhookId: string;
  search: DeliveriesSearch;
}) {
  const navigate = useNavigate({ from: "/webhooks/$webhookId" });
  const now = useNow();
  const endpoint = useWebhookQuery(workspaceId, webhookId);
  const filters = { status: search.status, type: search.type, window: search.window };
  const deliveries = useDeliveriesQuery(workspaceId, webhookId, filters);
  const rows = deliveries.data?.pages.flat() ?? [];
  const filtered = !!(filters.status || filters.type || filters.window);
  const { fetchNextPage } = deliveries;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const open = (delivery: string | undefined) => navigate({ search: (s) => ({ ...s, delivery }) });

  if (endpoint.isError) {
    const missing = endpoint.error instanceof ApiError && endpoint.error.status === 404;
    return (
      <EmptyState
        icon={InboxIcon}
        title={missing ? "This endpoint no longer exists" : "Could not load the endpoint"}
        action={
          <div className="flex gap-2">
            {!missing && (
              <Button variant="outline" onClick={() => endpoint.refetch()}>
                Try again
              </Button>
            )}
            <Button asChild>
              <Link to="/webhooks">All endpoints</Link>
            </Button>
          </div>
        }
      >
        {missing ? "It may have been deleted." : describeError(endpoint.error)}
      </EmptyState>
    );
  }

  const e = endpoint.data;
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <PageHeader
        title="Deliveries"
        description={
          e ? <span className="break-all font-mono">{e.url}</span> : "Loading the endpoint…"
        }
        actions={
          <>
            <Button variant="ghost" asChild>
              <Link to="/webhooks">
                <ArrowLeftIcon aria-hidden="true" />
                All endpoints
              </Link>
            </Button>
            {e && <EndpointActions workspaceId={workspaceId} endpoint={e} afterDelete="list" />}
          </>
        }
      />
      <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto p-4">
        {e && (
          <dl className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <div>
              <dt className="text-xs text-muted-foreground">Status</dt>
              <dd>
                <EndpointStatus endpoint={e} />
              </dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Failures</dt>
              <dd>
                <FailureCount count={e.failureCount} />
              </dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Last delivery</dt>
              <dd>{formatDateTime(e.lastDeliveryAt)}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Next retry</dt>
              <dd title={e.status === "disabled" && e.nextAttemptAt ? HELD_REASON : undefined}>
                {endpointNextRetry(e, now)}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Signing secret</dt>
              <dd className="text-muted-foreground">Hidden; rotate it to get a new one</dd>
            </div>
          </dl>
        )}
        {e?.status === "disabled" && <DisabledBanner workspaceId={workspaceId} endpoint={e} />}
        <Filters search={search} />
        {/* A later page that fails keeps the rows shown; the error goes under them. */}
        {deliveries.isError && rows.length === 0 ? (
          <LoadError
            title="Could not load the deliveries"
            error={deliveries.error}
            onRetry={() => void deliveries.refetch()}
          />
        ) : (
          <DeliveryList
            deliveries={rows}
            loading={deliveries.isPending}
            endpointStatus={e?.status}
            hasMore={deliveries.hasNextPage}
            loadingMore={deliveries.isFetchingNextPage}
            loadMoreError={deliveries.isFetchNextPageError ? deliveries.error : null}
            onLoadMore={loadMore}
            onOpen={open}
            selectedId={search.delivery}
            empty={
              <EmptyState
                icon={InboxIcon}
                title={filtered ? "No deliveries match" : "No deliveries yet"}
                action={
                  filtered ? (
                    <Button variant="outline" asChild>
                      <Link to="/webhooks/$webhookId" params={{ webhookId }} search={{}}>
                        Clear filters
                      </Link>
                    </Button>
                  ) : undefined
                }
              >
                {filtered
                  ? "Try another status, type or time."
                  : "Send a test event to see one arrive here."}
              </EmptyState>
            }
          />
        )}
      </div>
      {search.delivery && (
        <DeliveryDrawer
          workspaceId={workspaceId}
          webhookId={webhookId}
          deliveryId={search.delivery}
          held={e?.status === "disabled"}
          onClose={() => open(undefined)}
        />
      )}
    </div>
  );
}
