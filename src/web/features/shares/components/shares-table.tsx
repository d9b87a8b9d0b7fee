import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { formatBytes, formatCount, formatDateTime, formatRelative } from "@/browser/format";
import type { Share } from "@/contract/shares";
import {
  DataTable,
  type DataTableColumn,
  type DataTableSelection,
  rowActionClass,
} from "@/web/components/ui/data-table";
import { cn } from "@/web/lib/cn";
import type { SharesSearch } from "../shares-search";
import { DeliveryBadge, ShareStatusBadge } from "./share-status";

const ROW_HEIGHT = 56;

const columnsFor = (listSearch: SharesSearch): DataTableColumn<Share>[] => [
  {
    id: "title",
    header: "Share",
    primary: true,
    cell: (s) => (
      <Link
        to="/shares"
        search={{ ...listSearch, share: s.id }}
        className={cn("grid min-w-0 text-left", rowActionClass)}
      >
        <span className="truncate font-medium">{s.title}</span>
        <span className="truncate text-xs text-muted-foreground">
          {formatCount(s.fileCount)} {s.fileCount === 1 ? "file" : "files"},{" "}
          {formatBytes(s.totalBytes)}
          {s.passwordProtected ? " · password" : ""}
        </span>
      </Link>
    ),
  },
  {
    id: "status",
    header: "Status",
    className: "w-44",
    cell: (s) => (
      <span className="flex flex-col items-start gap-1">
        <ShareStatusBadge status={s.status} />
        <DeliveryBadge verdict={s.verdict} />
      </span>
    ),
  },
  {
    id: "recipients",
    header: "Recipients",
    hideBelow: "lg",
    className: "w-56",
    cell: (s) => (
      <span className="block truncate" title={s.recipients.map((r) => r.email).join(", ")}>
        {s.recipients.length === 0
          ? "Link only"
          : s.recipients.length === 1
            ? s.recipients[0]!.email
            : `${s.recipients[0]!.email} +${formatCount(s.recipients.length - 1)}`}
      </span>
    ),
  },
  {
    id: "expires",
    header: "Expires",
    hideBelow: "md",
    className: "w-36",
    cell: (s) => (
      <time dateTime={s.expiresAt} title={formatDateTime(s.expiresAt)}>
        {formatRelative(s.expiresAt)}
      </time>
    ),
  },
  {
    id: "downloads",
    header: "Downloads",
    hideBelow: "sm",
    className: "w-28 text-right",
    cell: (s) =>
      s.maxDownloads === null
        ? formatCount(s.downloadCount)
        : `${formatCount(s.downloadCount)} / ${formatCount(s.maxDownloads)}`,
  },
];

/** Every share listed: what, its state, to whom, until when, and how often it was downloaded. */
export function SharesTable({
  listSearch,
  shares,
  loading,
  empty,
  footer,
  selection,
  onEndReached,
}: {
  /** The list's search, kept in each share's link for the way back. */
  listSearch: SharesSearch;
  shares: Share[];
  loading: boolean;
  empty: ReactNode;
  footer?: ReactNode;
  /** Checkboxes for picking shares to extend or revoke together. */
  selection?: Omit<DataTableSelection<Share>, "rowLabel" | "allLabel">;
  onEndReached(): void;
}) {
  return (
    <DataTable
      label="Shares"
      columns={columnsFor(listSearch)}
      rows={shares}
      rowKey={(s) => s.id}
      rowHeight={ROW_HEIGHT}
      loading={loading}
      loadingLabel="Loading shares"
      empty={empty}
      footer={footer}
      onEndReached={onEndReached}
      selection={
        selection && {
          ...selection,
          rowLabel: (s) => `Select ${s.title}`,
          allLabel: "Select all shown",
        }
      }
      fit="section"
    />
  );
}
