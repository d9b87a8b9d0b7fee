import { useNavigate } from "@tanstack/react-router";
import {
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";
import type { ReviewDecision } from "@/contract/portal-rules";
import type { Portal, PortalUpload } from "@/contract/portals";
import { LoadError, LoadMoreError } from "@/web/components/load-error";
import { Button } from "@/web/components/ui/button";
import { SkeletonRows } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { formatCount } from "@/web/lib/format";
import { useKeymap } from "@/web/lib/keymap/use-keymap";
import { useFixedRows } from "@/web/lib/use-fixed-rows";
import { toast } from "@/web/stores/toast-store";
import { statusMatches, type UploadsFilter } from "../api/review-cache";
import { useReview } from "../hooks/use-review";
import { type QueueCommand, queueKeymap } from "../queue-keymap";
import { cursorIndex, initialQueueState, queueReducer } from "../state/queue-state";
import { reviewProblem } from "../state/review-undo";
import { QueueShortcutsDialog } from "./queue-shortcuts-dialog";
import { UploadInspector } from "./upload-inspector";
import { ROW_HEIGHT, type RowHandlers, UploadRow } from "./upload-row";

/** Within this many rows of the last one loaded, the next page is asked for. */
const LOAD_AHEAD = 15;

const unknownPortal = () => undefined;

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
  const [state, dispatch] = useReducer(queueReducer, initialQueueState);
  const labelOf = useCallback(
    (portalId: string, key: string) =>
      portalOf(portalId)?.fields.find((f) => f.key === key)?.label ?? key,
    [portalOf],
  );
  const [shortcuts, setShortcuts] = useState(false);
  const navigate = useNavigate();
  const review = useReview();
  const scrollRef = useRef<HTMLDivElement>(null);
  const ids = useMemo(() => uploads.map((u) => u.id), [uploads]);
  const activeIndex = cursorIndex(ids, state.cursor);
  const active = activeIndex >= 0 ? uploads[activeIndex] : undefined;
  const virtual = useFixedRows(scrollRef, {
    count: uploads.length,
    size: ROW_HEIGHT,
    overscan: 4,
    paddingStart: 0,
    paddingEnd: 0,
    scrollPaddingStart: 0,
    scrollPaddingEnd: 0,
  });

  const current = {
    ids,
    filterStatus,
    hasMore,
    loadingMore,
    loadMoreError,
    onLoadMore,
    virtual,
    portalOf,
  };
  const latest = useRef(current);
  latest.current = current;

  // Keyboard moves and decisions take focus to the active row, once it is rendered.
  const wantFocus = useRef(false);
  useLayoutEffect(() => {
    if (!wantFocus.current) return;
    if (activeIndex < 0) {
      wantFocus.current = false;
      return;
    }
    virtual.scrollToIndex(activeIndex, "auto");
    const row = scrollRef.current?.querySelector<HTMLElement>(
      `article[data-index="${activeIndex}"]`,
    );
    if (row) {
      row.focus({ preventScroll: true });
      wantFocus.current = false;
    }
  });

  const decide = useCallback(
    (upload: PortalUpload, decision: ReviewDecision, note?: string) => {
      const { ids, filterStatus, portalOf } = latest.current;
      if (!review(upload, decision, note, portalOf(upload.portalId)?.approvedPath)) return;
      wantFocus.current = true;
      dispatch({
        type: "decided",
        ids,
        id: upload.id,
        hides: !statusMatches(decision, filterStatus),
      });
    },
    [review],
  );

  const handlers = useMemo<RowHandlers>(
    () => ({
      activate: (index) => dispatch({ type: "select", ids: latest.current.ids, index }),
      decide,
      startReject: (upload) => {
        const problem = reviewProblem(upload);
        if (problem) {
          toast({ title: "Not ready for review", description: problem });
          return;
        }
        const { ids, virtual } = latest.current;
        const index = ids.indexOf(upload.id);
        if (index < 0) return;
        // Safari does not focus a clicked button, so the row is made active here too; and the
        // note opens in the row, which must be in view (the inspector's Reject… is elsewhere).
        dispatch({ type: "select", ids, index });
        virtual.scrollToIndex(index, "auto");
        dispatch({ type: "startReject", id: upload.id });
      },
      cancelReject: () => {
        wantFocus.current = true;
        dispatch({ type: "cancelReject" });
      },
    }),
    [decide],
  );

  const move = (to: "next" | "previous" | "first" | "last") => {
    const { ids, hasMore, loadingMore, loadMoreError, onLoadMore } = latest.current;
    if (ids.length === 0) return false;
    if ((to === "next" || to === "last") && hasMore && !loadingMore && !loadMoreError)
      onLoadMore?.();
    wantFocus.current = true;
    dispatch({ type: "move", ids, to });
  };
  const commands: Record<QueueCommand, () => unknown> = {
    next: () => move("next"),
    previous: () => move("previous"),
    first: () => move("first"),
    last: () => move("last"),
    approve: () => (active ? decide(active, "approved") : false),
    pending: () => (active ? decide(active, "pending") : false),
    reject: () => (active ? handlers.startReject(active) : false),
    openFolder: () =>
      active ? void navigate({ to: "/files", search: { path: active.folderPath } }) : false,
    showShortcuts: () => setShortcuts(true),
  };
  useKeymap(queueKeymap, commands, {
    alsoIgnore: "[role=listbox], [data-slot=toast]",
    holds: (_, target) => scrollRef.current?.contains(target) ?? false,
  });

  const lastRendered = virtual.rows.at(-1)?.index;
  useEffect(() => {
    if (
      hasMore &&
      !loadingMore &&
      !loadMoreError &&
      lastRendered !== undefined &&
      lastRendered >= uploads.length - LOAD_AHEAD
    )
      onLoadMore?.();
  }, [hasMore, loadingMore, loadMoreError, lastRendered, uploads.length, onLoadMore]);

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
      <div className="flex min-h-0 flex-1 flex-col max-lg:overflow-y-auto lg:flex-row">
        <div
          ref={scrollRef}
          data-testid="review-queue-scroller"
          className="@container relative min-h-0 flex-1 overflow-auto max-lg:h-[70dvh] max-lg:min-h-72 max-lg:flex-none"
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
                    setSize={hasMore ? total : uploads.length}
                    active={index === activeIndex}
                    rejecting={state.rejecting === upload.id}
                    labelOf={labelOf}
                    handlers={handlers}
                  />
                );
              })}
            </div>
          )}
          {loadingMore ? (
            <p className="p-3 text-center text-sm text-muted-foreground">Loading more…</p>
          ) : loadMoreError ? (
            <LoadMoreError what="uploads" error={loadMoreError} onRetry={() => onLoadMore?.()} />
          ) : null}
        </div>
        {active && !loading && !error && (
          <aside
            aria-label="The active upload"
            className="shrink-0 border-border max-lg:border-t lg:w-96 lg:overflow-y-auto lg:border-l"
          >
            <UploadInspector
              workspaceId={workspaceId}
              upload={active}
              labelOf={labelOf}
              onDecide={(decision) => decide(active, decision)}
              onReject={() => handlers.startReject(active)}
            />
          </aside>
        )}
      </div>
      {shortcuts && <QueueShortcutsDialog onClose={() => setShortcuts(false)} />}
    </div>
  );
}
