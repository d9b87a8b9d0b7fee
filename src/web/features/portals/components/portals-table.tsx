import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { formatBytes, formatCount, formatDateTime, formatRelative } from "@/browser/format";
import type { Portal } from "@/contract/portals";
import { Badge } from "@/web/components/ui/badge";
import { DataTable, type DataTableColumn, rowActionClass } from "@/web/components/ui/data-table";
import { cn } from "@/web/lib/cn";
import { reviewSearchFor } from "../portals-search";
import { PortalActions } from "./portal-actions";
import { PortalStatusBadge } from "./portal-badges";

const ROW_HEIGHT = 56;

const when = (iso: string | null, none: string) =>
  iso === null ? (
    <span className="text-muted-foreground">{none}</span>
  ) : (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );

/** The "to review" count, a link to the queue filtered to this portal. */
export function AwaitingBadge({ portal }: { portal: Portal }) {
  if (portal.awaitingReview === 0) return <span className="text-muted-foreground">—</span>;
  const count = formatCount(portal.awaitingReview);
  return (
    <Link
      to="/portals"
      search={reviewSearchFor(portal.id)}
      className="relative z-[1] rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      aria-label={`${count} to review from ${portal.title}: open the review queue`}
    >
      <Badge className="hover:bg-accent">{count} to review</Badge>
    </Link>
  );
}

const columns: DataTableColumn<Portal>[] = [
  {
    id: "title",
    header: "Portal",
    primary: true,
    cell: (p) => (
      <Link
        to="/portals"
        search={{ portal: p.id }}
        className={cn("grid min-w-0 text-left", rowActionClass)}
      >
        <span className="truncate font-medium">{p.title}</span>
        <span className="truncate text-xs text-muted-foreground">
          {formatCount(p.uploadCount)} {p.uploadCount === 1 ? "upload" : "uploads"} into{" "}
          {p.targetPath || "the workspace root"}
        </span>
      </Link>
    ),
  },
  {
    id: "status",
    header: "Status",
    hideBelow: "sm",
    className: "w-28",
    cell: (p) => <PortalStatusBadge portal={p} />,
  },
  {
    id: "review",
    header: "To review",
    className: "w-32",
    cell: (p) => <AwaitingBadge portal={p} />,
  },
  {
    id: "bytes",
    header: "Received",
    hideBelow: "lg",
    className: "w-28 text-right tabular-nums",
    cell: (p) => formatBytes(p.bytesReceived),
  },
  {
    id: "expires",
    header: "Expires",
    hideBelow: "md",
    className: "w-32",
    cell: (p) => when(p.expiresAt, "Never"),
  },
  {
    id: "last",
    header: "Last upload",
    hideBelow: "xl",
    className: "w-36",
    cell: (p) => when(p.lastUploadAt, "None yet"),
  },
  {
    id: "actions",
    header: <span className="sr-only">Actions</span>,
    className: "w-14 sm:w-32",
    cell: (p) => <PortalActions portal={p} layout="row" />,
  },
];

/** Every portal: what, whether it takes uploads, what waits for review, and its link. */
export function PortalsTable({
  portals,
  loading,
  empty,
}: {
  portals: Portal[];
  loading: boolean;
  empty: ReactNode;
}) {
  return (
    <DataTable
      label="Portals"
      columns={columns}
      rows={portals}
      rowKey={(p) => p.id}
      rowHeight={ROW_HEIGHT}
      loading={loading}
      loadingLabel="Loading portals"
      empty={empty}
      fit="section"
      className="rounded-lg border border-border"
    />
  );
}
