import { Link } from "@tanstack/react-router";
import { CheckIcon, ClockIcon, FolderSymlinkIcon, XIcon } from "lucide-react";
import { memo } from "react";
import { formatBytes, formatCount, formatDateTime, formatRelative } from "@/browser/format";
import type { ReviewDecision } from "@/contract/portal-rules";
import type { PortalUpload } from "@/contract/portals";
import { Button } from "@/web/components/ui/button";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { cn } from "@/web/lib/cn";
import { type ReviewNotes, reviewProblem, senderOf } from "../state/review-undo";
import { SpecCheckBadge, UploadStatusBadge } from "./portal-badges";
import { RejectNote } from "./reject-note";
import { UploadThumbs } from "./upload-thumbs";

/** Every row one height, so the queue renders only the rows in view (use-fixed-rows). */
export const ROW_HEIGHT = 104;

/** The queue's handlers, one stable object, so a row re-renders only when its own props change. */
export interface RowHandlers {
  activate(index: number): void;
  /** `confirmed`: the reviewer already said yes to approving an upload whose check did not pass. */
  decide(
    upload: PortalUpload,
    decision: ReviewDecision,
    notes?: ReviewNotes,
    confirmed?: boolean,
  ): void;
  startReject(upload: PortalUpload): void;
  cancelReject(): void;
  /** A tap on the row (not on its controls) or Enter on it: on a narrow screen, its details open. */
  open?(upload: PortalUpload): void;
}

export const filesSummary = (u: PortalUpload) =>
  u.fileCount === null
    ? formatBytes(u.bytesTotal ?? u.bytesDone)
    : `${formatCount(u.fileCount)} ${u.fileCount === 1 ? "file" : "files"}, ${formatBytes(u.bytesTotal ?? u.bytesDone)}`;

/** The sender's answers on one line: "Shot: 12 · Take: 3". */
export const fieldsSummary = (
  u: PortalUpload,
  labelOf: (portalId: string, key: string) => string,
) =>
  Object.entries(u.fields)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `${labelOf(u.portalId, k)}: ${v}`)
    .join(" · ");

/**
 * One upload in the queue, an article of the feed placed at `start`: who sent it, from which
 * portal, what they answered, its thumbnails, the spec check and the review. The active row is
 * the one focusable stop (roving tabindex), its buttons too.
 */
export const UploadRow = memo(function UploadRow({
  workspaceId,
  upload,
  index,
  start,
  setSize,
  active,
  rejecting,
  selected,
  onToggle,
  labelOf,
  handlers,
}: {
  workspaceId: string;
  upload: PortalUpload;
  index: number;
  start: number;
  setSize: number;
  active: boolean;
  rejecting: boolean;
  /** In the selection a bulk decision takes; a Shift-click extends it from the last one. */
  selected: boolean;
  onToggle(index: number, range: boolean): void;
  labelOf(portalId: string, key: string): string;
  handlers: RowHandlers;
}) {
  const id = `upload-${upload.id}`;
  const who = senderOf(upload);
  const tab = active ? 0 : -1;
  const answers = fieldsSummary(upload, labelOf);
  const at = upload.completedAt ?? upload.createdAt;
  return (
    <article
      data-upload-id={upload.id}
      data-index={index}
      tabIndex={tab}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      aria-labelledby={`${id}-who`}
      aria-describedby={`${id}-about ${id}-state`}
      onFocus={() => handlers.activate(index)}
      onClick={(e) => {
        if (!(e.target as Element).closest("button, input, textarea, a")) handlers.open?.(upload);
      }}
      onKeyDown={(e) => {
        if (e.key !== "Enter" || e.target !== e.currentTarget || !handlers.open) return;
        // The sheet takes focus within this keydown: without this the same Enter would go on
        // to press the first button in it (Approve).
        e.preventDefault();
        handlers.open(upload);
      }}
      className={cn(
        "absolute left-0 top-0 flex w-full items-center gap-3 border-b border-border px-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring",
        active ? "bg-selected" : "hover:bg-accent",
      )}
      style={{ height: ROW_HEIGHT, transform: `translateY(${start}px)` }}
    >
      <NativeCheckbox
        checked={selected}
        tabIndex={tab}
        aria-label={`Select ${who}’s upload`}
        onChange={(e) => onToggle(index, (e.nativeEvent as MouseEvent).shiftKey === true)}
      />
      <UploadThumbs workspaceId={workspaceId} upload={upload} max={3} className="hidden @xl:flex" />
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="flex min-w-0 items-baseline gap-2 text-sm">
          <span id={`${id}-who`} className="truncate font-medium">
            {who}
          </span>
          {upload.senderName && upload.senderEmail && (
            <span className="hidden truncate text-xs text-muted-foreground @md:inline">
              {upload.senderEmail}
            </span>
          )}
        </p>
        <p id={`${id}-about`} className="truncate text-xs text-muted-foreground">
          {upload.portalTitle} · {filesSummary(upload)} ·{" "}
          <time dateTime={at} title={formatDateTime(at)}>
            {formatRelative(at)}
          </time>
        </p>
        <p className="truncate text-xs" title={answers || upload.message || undefined}>
          {answers || upload.message || <span className="text-muted-foreground">No answers</span>}
        </p>
        <div id={`${id}-state`} className="flex min-w-0 items-center gap-2">
          <UploadStatusBadge upload={upload} />
          <SpecCheckBadge check={upload.specCheck} />
          {upload.reviewNote && (
            <span
              className="min-w-0 truncate text-xs text-muted-foreground"
              title={upload.reviewNote}
            >
              “{upload.reviewNote}”{upload.reviewedBy && ` — ${upload.reviewedBy.name}`}
            </span>
          )}
        </div>
      </div>
      {rejecting ? (
        <RejectNote
          upload={upload}
          onSubmit={(notes) => handlers.decide(upload, "rejected", notes)}
          onCancel={handlers.cancelReject}
        />
      ) : (
        <RowActions upload={upload} tab={tab} handlers={handlers} />
      )}
    </article>
  );
});

/** A row's buttons: Approve, Reject…, and where the row is wide enough Pending and Open in Files. */
function RowActions({
  upload,
  tab,
  handlers,
}: {
  upload: PortalUpload;
  tab: number;
  handlers: RowHandlers;
}) {
  const who = senderOf(upload);
  const reviewable = reviewProblem(upload) === null;
  return (
    <div className="flex shrink-0 items-center gap-1">
      <Button
        variant="ghost"
        size="icon-sm"
        tabIndex={tab}
        disabled={!reviewable}
        aria-label={`Approve ${who}’s upload`}
        aria-keyshortcuts="a"
        title="Approve (a)"
        className="text-success"
        onClick={() => handlers.decide(upload, "approved")}
      >
        <CheckIcon aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        tabIndex={tab}
        disabled={!reviewable}
        aria-label={`Reject ${who}’s upload…`}
        aria-keyshortcuts="r"
        title="Reject… (r)"
        className="text-destructive-text"
        onClick={() => handlers.startReject(upload)}
      >
        <XIcon aria-hidden="true" />
      </Button>
      {/* Narrow rows keep Approve and Reject; these two are in the details and on keys. */}
      <span className="hidden @md:contents">
        <Button
          variant="ghost"
          size="icon-sm"
          tabIndex={tab}
          disabled={!reviewable}
          aria-label={`Set ${who}’s upload to pending`}
          aria-keyshortcuts="p"
          title="Set to pending (p)"
          onClick={() => handlers.decide(upload, "pending")}
        >
          <ClockIcon aria-hidden="true" />
        </Button>
        <Button variant="ghost" size="icon-sm" asChild>
          <Link
            to="/files"
            search={{ path: upload.folderPath }}
            tabIndex={tab}
            aria-label={`Open ${who}’s folder in Files`}
            aria-keyshortcuts="o"
            title="Open in Files (o)"
          >
            <FolderSymlinkIcon aria-hidden="true" />
          </Link>
        </Button>
      </span>
    </div>
  );
}
