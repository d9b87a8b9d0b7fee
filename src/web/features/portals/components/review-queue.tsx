import { type ReactNode, useCallback, useMemo, useState } from "react";
import { formatCount } from "@/browser/format";
import { REVIEW_BULK_MAX } from "@/contract/portal-rules";
import type { Portal, PortalUpload } from "@/contract/portals";
import { ConfirmDialog } from "@/web/components/confirm-dialog";
import { LoadError, LoadMoreError } from "@/web/components/load-error";
import { Button } from "@/web/components/ui/button";
import { Sheet, SheetContent, SheetTitle } from "@/web/components/ui/sheet";
import { SkeletonRows } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { useMediaQuery } from "@/web/lib/use-media-query";
import type { UploadsFilter } from "../api/review-cache";
import { useReviewQueue } from "../hooks/use-review-queue";
import { approvalRisk, senderOf } from "../state/review-undo";
import {
  noSelection,
  selectedInOrder,
  toggleSelection,
  type UploadSelection,
} from "../state/upload-selection";
import { BulkReviewBar } from "./bulk-review-bar";
import { QueueShortcutsDialog } from "./queue-shortcuts-dialog";
import { UploadInspector } from "./upload-inspector";
import { type RowHandlers, UploadRow } from "./upload-row";

const unknownPortal = () => undefined;

/** Tailwind's `lg`: from here up the inspector sits beside the queue; below, it is a sheet. */
const INSPECTOR_BESIDE = "(min-width: 64rem)";

/**
 * Uploads to triage from the keyboard: a feed of fixed-height rows (only those in view are
 * rendered, so 5,000 cost what 50 do), the active one's details beside it, and the keys of
 * `queue-keymap.ts`. A decision shows at once and the next upload becomes active; when the
 * filter no longer lists the decided row it leaves and the next one takes its place.
 */
export function ReviewQueue({
  workspaceId,
  uploads,
  total,
  filterStatus,
  label,
  loading,
  error,
  onRetry,
  hasMore = false,
  loadingMore = false,
  loadMoreError = null,
  onLoadMore,
  empty,
  portalOf = unknownPortal,
  className,
}: {
  workspaceId: string;
  uploads: PortalUpload[];
  /** Every upload the filter matches, loaded or not. */
  total: number;
  /** What the list shows: a decided row that no longer matches leaves it. */
  filterStatus: UploadsFilter["status"];
  label: string;
  loading: boolean;
  error: unknown;
  onRetry(): void;
  hasMore?: boolean;
  loadingMore?: boolean;
  /** The last page asked for failed: loading more waits for Try again. */
  loadMoreError?: unknown;
  onLoadMore?(): void;
  empty: ReactNode;
  /** The upload's portal when known: its fields' labels, where approval moves a folder. */
  portalOf?(portalId: string): Portal | undefined;
  className?: string;
}) {
  const queue = useReviewQueue({
    uploads,
    filterStatus,
    hasMore,
    loadingMore,
    loadMoreError,
    onLoadMore,
    portalOf,
  });
  const { active, labelOf, decide, setShortcuts } = queue;
  const beside = useMediaQuery(INSPECTOR_BESIDE);
  // On a narrow screen the active upload's details open as a sheet over the queue when its row
  // is tapped (drawn below the list, they were a screen's height away from the tap).
  const [sheetFor, setSheetFor] = useState<string | null>(null);
  const handlers = useMemo<RowHandlers>(
    () => ({ ...queue.handlers, open: (upload) => setSheetFor(upload.id) }),
    [queue.handlers],
  );
  const [selection, setSelection] = useState<UploadSelection>(noSelection);
  const order = useMemo(() => uploads.map((u) => u.id), [uploads]);
  const selected = useMemo(() => selectedInOrder(selection, order), [selection, order]);
  const onToggle = useCallback(
    (index: number, range: boolean) =>
      setSelection((s) => toggleSelection(s, order, index, range, REVIEW_BULK_MAX)),
    [order],
  );

  const inspector = (upload: PortalUpload) => (
    <UploadInspector
      workspaceId={workspaceId}
      upload={upload}
      labelOf={labelOf}
      onDecide={(decision) => decide(upload, decision)}
      onReject={() => handlers.startReject(upload)}
    />
  );

  return (
    <div className={cn("flex min-h-0 flex-1 flex-col", className)}>
      <div className="flex items-center gap-3 border-b border-border px-4 py-2 text-sm">
        <p className="text-muted-foreground">
          {loading
            ? "Loading…"
            : error
              ? ""
              : `${formatCount(total)} ${total === 1 ? "upload" : "uploads"}`}
        </p>
        <Button
          variant="ghost"
          size="sm"
          className="ml-auto"
          aria-keyshortcuts="?"
          onClick={() => setShortcuts(true)}
        >
          Shortcuts <kbd className="font-mono text-xs text-muted-foreground">?</kbd>
        </Button>
      </div>
      {selected.length > 0 && (
        <BulkReviewBar ids={selected} onClear={() => setSelection(noSelection)} />
      )}
      <div className="flex min-h-0 flex-1">
        <div
          ref={queue.scrollRef}
          data-testid="review-queue-scroller"
          className="@container relative min-h-0 flex-1 overflow-auto"
        >
          {loading ? (
            <SkeletonRows label="Loading uploads" rows={5} rowClassName="h-20" className="p-3" />
          ) : error ? (
            <div className="p-4">
              <LoadError title="Could not load the uploads" error={error} onRetry={onRetry} />
            </div>
          ) : uploads.length === 0 ? (
            empty
          ) : (
            <QueueFeed
              queue={queue}
              handlers={handlers}
              workspaceId={workspaceId}
              uploads={uploads}
              label={label}
              loadingMore={loadingMore}
              setSize={hasMore ? total : uploads.length}
              selection={selection.ids}
              onToggle={onToggle}
            />
          )}
          {loadingMore ? (
            <p className="p-3 text-center text-sm text-muted-foreground">Loading more…</p>
          ) : loadMoreError ? (
            <LoadMoreError what="uploads" error={loadMoreError} onRetry={() => onLoadMore?.()} />
          ) : null}
        </div>
        {active && !loading && !error && beside && (
          <aside
            aria-label="The active upload"
            className="w-96 shrink-0 overflow-y-auto border-l border-border"
          >
            {inspector(active)}
          </aside>
        )}
      </div>
      {active && !loading && !error && !beside && sheetFor === active.id && (
        <Sheet open onOpenChange={(open) => !open && setSheetFor(null)}>
          <SheetContent
            aria-label="The active upload"
            aria-labelledby={undefined}
            aria-describedby={undefined}
            className="max-w-md overflow-y-auto p-0"
          >
            <SheetTitle className="sr-only">{senderOf(active)}’s upload</SheetTitle>
            {inspector(active)}
          </SheetContent>
        </Sheet>
      )}
      {queue.shortcuts && <QueueShortcutsDialog onClose={() => setShortcuts(false)} />}
      {queue.confirming && (
        <ConfirmDialog
          title={`Approve ${senderOf(queue.confirming)}’s upload?`}
          description={`${approvalRisk(queue.confirming)} Enter approves it anyway, Esc leaves it as it is.`}
          confirmLabel="Approve anyway"
          confirmFirst
          onConfirm={async () => decide(queue.confirming!, "approved", undefined, true)}
          onClose={() => queue.setConfirming(null)}
        />
      )}
    </div>
  );
}

/** The rows in view, placed at their offsets in a feed as tall as all of them. */
function QueueFeed({
  queue: { virtual, activeIndex, state, labelOf },
  handlers,
  workspaceId,
  uploads,
  label,
  loadingMore,
  setSize,
  selection,
  onToggle,
}: {
  queue: ReturnType<typeof useReviewQueue>;
  handlers: RowHandlers;
  workspaceId: string;
  uploads: PortalUpload[];
  label: string;
  loadingMore: boolean;
  setSize: number;
  selection: ReadonlySet<string>;
  onToggle(index: number, range: boolean): void;
}) {
  return (
    <div
      role="feed"
      aria-label={label}
      aria-busy={loadingMore}
      className="relative"
      style={{ height: virtual.totalSize }}
    >
      {virtual.rows.map(({ index, start }) => {
        const upload = uploads[index]!;
        return (
          <UploadRow
            key={upload.id}
            workspaceId={workspaceId}
            upload={upload}
            index={index}
            start={start}
            setSize={setSize}
            active={index === activeIndex}
            rejecting={state.rejecting === upload.id}
            selected={selection.has(upload.id)}
            onToggle={onToggle}
            labelOf={labelOf}
            handlers={handlers}
          />
        );
      })}
    </div>
  );
}
