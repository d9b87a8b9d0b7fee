import type { ReactNode } from "react";
import { formatDateTime } from "@/browser/format";
import type { WebhookDelivery, WebhookEndpoint } from "@/contract/webhooks";
import { LoadMoreError } from "@/web/components/load-error";
import { DataTable, type DataTableColumn, rowActionClass } from "@/web/components/ui/data-table";
import { deliveryTiming } from "@/web/features/webhooks/delivery-timing";
import { useNow } from "@/web/lib/use-now";
import { DeliveryStatusBadge } from "./delivery-status";

const ROW_HEIGHT = 52;

const outcome = (d: WebhookDelivery) =>
  `${d.attempts} ${d.attempts === 1 ? "attempt" : "attempts"}${
    d.lastError ? ` · ${d.lastError}` : d.lastStatusCode ? ` · HTTP ${d.lastStatusCode}` : ""
  }`;

/** The log as one table; reaching its end loads the next page (the `before` cursor). */
export function DeliveryList({
  deliveries,
  loading,
  endpointStatus,
  hasMore,
  loadingMore,
  loadMoreError = null,
  onLoadMore,
  onOpen,
  selectedId,
  empty,
}: {
  deliveries: WebhookDelivery[];
  loading: boolean;
  endpointStatus: WebhookEndpoint["status"] | undefined;
  hasMore: boolean;
  loadingMore: boolean;
  /** The last page asked for failed: loading more waits for Try again. */
  loadMoreError?: unknown;
  onLoadMore(): void;
  onOpen(id: string): void;
  selectedId?: string;
  empty: ReactNode;
}) {
  const now = useNow();
  const timing = (d: WebhookDelivery) => deliveryTiming(d, endpointStatus, now);
  const columns: DataTableColumn<WebhookDelivery>[] = [
    {
      id: "status",
      header: "Status",
      className: "w-28",
      cell: (d) => <DeliveryStatusBadge status={d.status} held={timing(d).kind === "held"} />,
    },
    {
      id: "event",
      header: "Event",
      primary: true,
      cell: (d) => (
        <button
          type="button"
          onClick={() => onOpen(d.id)}
          className={`${rowActionClass} block w-full text-left`}
        >
          <span className="block truncate font-mono">{d.type}</span>
          <span className="block truncate text-xs text-muted-foreground">{outcome(d)}</span>
        </button>
      ),
    },
    {
      id: "next",
      header: "Next attempt",
      hideBelow: "md",
      className: "w-44 text-xs text-muted-foreground",
      cell: (d) => {
        const t = timing(d);
        if (t.kind === "held") return <span title={t.reason}>Held: endpoint disabled</span>;
        return t.kind === "due" ? `Next ${t.countdown}` : "";
      },
    },
    {
      id: "created",
      header: "Created",
      hideBelow: "sm",
      className: "w-48 text-right text-xs text-muted-foreground",
      cell: (d) => formatDateTime(d.createdAt),
    },
  ];
  return (
    <DataTable
      label="Deliveries, newest first"
      fit="section"
      className="rounded-lg border border-border"
      columns={columns}
      rows={deliveries}
      rowKey={(d) => d.id}
      rowHeight={ROW_HEIGHT}
      loading={loading}
      loadingLabel="Loading deliveries"
      isCurrent={(d) => d.id === selectedId}
      empty={empty}
      onEndReached={hasMore && !loadingMore && !loadMoreError ? onLoadMore : undefined}
      footer={
        hasMore &&
        (loadMoreError && !loadingMore ? (
          <LoadMoreError what="deliveries" error={loadMoreError} onRetry={onLoadMore} />
        ) : (
          <p className="px-3 py-4 text-sm text-muted-foreground" role="status">
            {loadingMore ? "Loading more…" : ""}
          </p>
        ))
      }
    />
  );
}
