import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { formatDateTime } from "@/browser/format";
import { DISABLE_AFTER_FAILURES } from "@/contract/rules";
import type { WebhookEndpoint } from "@/contract/webhooks";
import { DataTable, type DataTableColumn, rowActionClass } from "@/web/components/ui/data-table";
import { endpointNextRetry, HELD_REASON } from "@/web/features/webhooks/delivery-timing";
import { useNow } from "@/web/lib/use-now";
import { EndpointActions } from "./endpoint-actions";
import { ToneBadge } from "./tone-badge";

const ROW_HEIGHT = 56;
/** Event types named in a row; the rest are counted, so every row keeps one height. */
const EVENTS_NAMED = 2;

export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  return endpoint.status === "active" ? (
    <ToneBadge tone="success">Active</ToneBadge>
  ) : (
    <ToneBadge tone="danger">Disabled</ToneBadge>
  );
}

/** "7 of 20": consecutive failed attempts against the count that disables the endpoint. */
export function FailureCount({ count }: { count: number }) {
  return (
    <span className={count > 0 ? "font-medium" : "text-muted-foreground"}>
      {count} of {DISABLE_AFTER_FAILURES}
    </span>
  );
}

function Events({ events }: { events: string[] }) {
  const more = events.length - EVENTS_NAMED;
  return (
    <span className="flex min-w-0 gap-1 font-mono text-xs" title={events.join(", ")}>
      <span className="truncate">
        {events
          .slice(0, EVENTS_NAMED)
          .map((e) => (e === "*" ? "* (all)" : e))
          .join(", ")}
      </span>
      {more > 0 && <span className="shrink-0 text-muted-foreground">+{more} more</span>}
    </span>
  );
}

export function EndpointTable({
  workspaceId,
  endpoints,
  loading,
  empty,
}: {
  workspaceId: string;
  endpoints: WebhookEndpoint[];
  loading: boolean;
  empty: ReactNode;
}) {
  const now = useNow();
  const columns: DataTableColumn<WebhookEndpoint>[] = [
    {
      id: "endpoint",
      header: "Endpoint",
      primary: true,
      cell: (endpoint) => (
        <>
          <Link
            to="/webhooks/$webhookId"
            params={{ webhookId: endpoint.id }}
            className={`${rowActionClass} block truncate font-mono text-link hover:underline`}
            title={endpoint.url}
          >
            {endpoint.url}
          </Link>
          {endpoint.description && (
            <span className="block truncate text-xs text-muted-foreground">
              {endpoint.description}
            </span>
          )}
        </>
      ),
    },
    {
      id: "events",
      header: "Events",
      hideBelow: "lg",
      className: "w-60",
      cell: (endpoint) => <Events events={endpoint.events} />,
    },
    {
      id: "status",
      header: "Status",
      hideBelow: "sm",
      className: "w-28",
      cell: (endpoint) => <EndpointStatus endpoint={endpoint} />,
    },
    {
      id: "failures",
      header: "Failures",
      hideBelow: "md",
      className: "w-24",
      cell: (endpoint) => <FailureCount count={endpoint.failureCount} />,
    },
    {
      id: "last",
      header: "Last delivery",
      hideBelow: "lg",
      className: "w-52",
      cell: (endpoint) => formatDateTime(endpoint.lastDeliveryAt),
    },
    {
      id: "next",
      header: "Next retry",
      hideBelow: "md",
      className: "w-28",
      cell: (endpoint) => (
        <span title={endpoint.status === "disabled" ? HELD_REASON : undefined}>
          {endpointNextRetry(endpoint, now)}
        </span>
      ),
    },
    {
      id: "actions",
      header: <span className="sr-only">Actions</span>,
      className: "w-36",
      cell: (endpoint) => <EndpointActions workspaceId={workspaceId} endpoint={endpoint} />,
    },
  ];
  return (
    <DataTable
      label="Webhook endpoints"
      className="rounded-lg border border-border"
      columns={columns}
      rows={endpoints}
      rowKey={(endpoint) => endpoint.id}
      rowHeight={ROW_HEIGHT}
      loading={loading}
      loadingLabel="Loading endpoints"
      empty={empty}
    />
  );
}
