import { ArrowDownToLineIcon, ArrowUpFromLineIcon } from "lucide-react";
import type { ReactNode } from "react";
import { formatBytes, formatCount, formatDateTime, formatRelative } from "@/browser/format";
import type { Transfer } from "@/contract/transfers";
import { DataTable, type DataTableColumn, rowActionClass } from "@/web/components/ui/data-table";
import { ProgressBar } from "@/web/components/ui/progress-bar";
import { formatDuration } from "@/web/features/jobs";
import { cn } from "@/web/lib/cn";
import { describeTransfer, type TransferView } from "../transfer-model";
import { TransferStatusBadge } from "./transfer-status";
import { UploadControls } from "./upload-controls";

const ROW_HEIGHT = 56;

export interface TransferRow {
  record: Transfer;
  view: TransferView;
}

const when = (iso: string | null) =>
  iso ? (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  ) : (
    "—"
  );

export function transferFigures(view: TransferView) {
  return {
    files:
      view.filesTotal === null
        ? formatCount(view.filesDone)
        : `${formatCount(view.filesDone)} / ${formatCount(view.filesTotal)}`,
    rate: view.bytesPerSecond === null ? "—" : `${formatBytes(Math.round(view.bytesPerSecond))}/s`,
    eta: view.etaSeconds === null ? "—" : formatDuration(view.etaSeconds),
  };
}

/** Every recent transfer: what it moves, how far it is, how fast, and this browser's controls. */
export function TransfersTable({
  rows,
  selectedId,
  onOpen,
  loading,
  empty,
}: {
  rows: TransferRow[];
  selectedId: string | null;
  onOpen(id: string): void;
  loading?: boolean;
  empty?: ReactNode;
}) {
  const columns: DataTableColumn<TransferRow>[] = [
    {
      id: "transfer",
      header: "Transfer",
      primary: true,
      cell: ({ record }) => {
        const Icon = record.direction === "send" ? ArrowUpFromLineIcon : ArrowDownToLineIcon;
        return (
          <button
            type="button"
            className={cn("flex min-w-0 items-center gap-2 text-left", rowActionClass)}
            onClick={() => onOpen(record.id)}
            aria-haspopup="dialog"
          >
            <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
            <span className="grid min-w-0">
              <span className="truncate font-medium">{describeTransfer(record)}</span>
              <span className="truncate text-xs text-muted-foreground">
                {record.client}
                {record.errorMessage ? ` · ${record.errorMessage}` : ""}
              </span>
            </span>
          </button>
        );
      },
    },
    {
      id: "progress",
      header: "Progress",
      className: "w-28 sm:w-44",
      cell: ({ record, view }) => (
        <ProgressBar
          unknownText="Size unknown"
          percent={view.percent}
          label={`Progress of ${describeTransfer(record)}`}
          stopped={record.status === "failed" || record.status === "cancelled"}
        />
      ),
    },
    {
      id: "files",
      header: "Files",
      hideBelow: "md",
      className: "w-24 text-right tabular-nums text-muted-foreground",
      cell: ({ view }) => transferFigures(view).files,
    },
    {
      id: "rate",
      header: "Rate",
      hideBelow: "md",
      className: "w-28 text-right tabular-nums text-muted-foreground",
      cell: ({ view }) => transferFigures(view).rate,
    },
    {
      id: "eta",
      header: "Time left",
      hideBelow: "lg",
      className: "w-24 text-right tabular-nums text-muted-foreground",
      cell: ({ view }) => transferFigures(view).eta,
    },
    {
      id: "started",
      header: "Started",
      hideBelow: "lg",
      className: "w-32 text-muted-foreground",
      cell: ({ record }) => when(record.startedAt ?? record.createdAt),
    },
    {
      id: "finished",
      header: "Finished",
      hideBelow: "xl",
      className: "w-32 text-muted-foreground",
      cell: ({ record }) => when(record.finishedAt),
    },
    {
      id: "status",
      header: "Status",
      hideBelow: "sm",
      className: "w-36",
      cell: ({ record, view }) => (
        <TransferStatusBadge status={record.status} local={view.upload?.status} />
      ),
    },
    {
      id: "actions",
      header: <span className="sr-only">Actions</span>,
      className: "w-48 text-right",
      hideBelow: "md",
      cell: ({ record, view }) =>
        view.upload && (
          <UploadControls
            upload={view.upload}
            label={describeTransfer(record)}
            pickers={false}
            className="relative z-[1] justify-end"
          />
        ),
    },
  ];
  return (
    <DataTable
      label="Transfers"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.record.id}
      rowHeight={ROW_HEIGHT}
      isCurrent={(row) => row.record.id === selectedId}
      loading={loading}
      loadingLabel="Loading the transfers"
      empty={empty}
    />
  );
}
