import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { formatBytes, formatExactDateTime } from "@/browser/format";
import type { Transfer } from "@/contract/transfers";
import { ProgressBar } from "@/web/components/ui/progress-bar";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/web/components/ui/sheet";
import { describeTransfer, sentFolder, type TransferView } from "../transfer-model";
import { TransferStatusBadge } from "./transfer-status";
import { transferFigures } from "./transfers-table";
import { UploadControls } from "./upload-controls";
import { UploadFileList } from "./upload-file-list";

/** Path items named in the drawer (the record carries the first 100). */
const PATHS_SHOWN = 20;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] gap-2 py-1.5 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/**
 * One transfer in full: counters, times, paths and error; for this browser's own upload, each
 * file with its progress and its own pause, resume and cancel.
 */
export function TransferDrawer({
  record,
  view,
  onClose,
}: {
  record: Transfer;
  view: TransferView;
  onClose(): void;
}) {
  const label = describeTransfer(record);
  const figures = transferFigures(view);
  const folder = record.status === "completed" ? sentFolder(record) : null;
  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent>
        <div className="grid gap-1">
          <SheetTitle>{label}</SheetTitle>
          <SheetDescription>
            {record.direction === "send" ? "Into the workspace" : "Out of the workspace"}, by{" "}
            {record.client}
          </SheetDescription>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <TransferStatusBadge status={record.status} local={view.upload?.status} />
          {folder !== null && (
            <Link
              to="/files"
              search={{ path: folder || undefined }}
              className="text-sm text-link underline-offset-4 hover:underline"
            >
              Open {folder ? `“${folder}”` : "the workspace root"}
            </Link>
          )}
        </div>
        {view.upload && <UploadControls upload={view.upload} label={label} />}
        {view.upload?.status === "waiting" && (
          <p className="text-sm text-muted-foreground">
            Waiting for files: choose the same files or folder to resume. The upload continues where
            it stopped.
          </p>
        )}
        <ProgressBar
          unknownText="Size unknown"
          percent={view.percent}
          label={`Progress of ${label}`}
        />
        <dl className="divide-y divide-border">
          <Row label="Bytes">
            {formatBytes(view.bytesDone)}
            {view.bytesTotal === null ? "" : ` of ${formatBytes(view.bytesTotal)}`}
          </Row>
          <Row label="Files">{figures.files}</Row>
          <Row label="Rate">{figures.rate}</Row>
          <Row label="Time left">{figures.eta}</Row>
          <Row label="Created">{formatExactDateTime(record.createdAt)}</Row>
          <Row label="Started">{formatExactDateTime(record.startedAt)}</Row>
          <Row label="Finished">{formatExactDateTime(record.finishedAt)}</Row>
          <Row label="Streams">{record.streams}</Row>
          <Row label="Priority">{record.priority}</Row>
          {record.errorMessage && (
            <Row label="Error">
              <span className="text-destructive-text">
                {record.errorMessage}
                {record.errorCode ? ` (${record.errorCode})` : ""}
              </span>
            </Row>
          )}
        </dl>
        {record.paths && record.paths.length > 0 && (
          <div className="grid gap-1">
            <h3 className="text-sm font-medium">Paths</h3>
            <ul className="grid gap-1 text-sm">
              {record.paths.slice(0, PATHS_SHOWN).map((p) => (
                <li key={`${p.source}\u0000${p.destination}`} className="break-words">
                  {p.source} → {p.destination}
                </li>
              ))}
            </ul>
          </div>
        )}
        {view.upload && <UploadFileList upload={view.upload} />}
      </SheetContent>
    </Sheet>
  );
}
