import { useNavigate } from "@tanstack/react-router";
import {
  type RefObject,
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
import { useKeymap } from "@/web/lib/keymap/use-keymap";
import { useFixedRows } from "@/web/lib/use-fixed-rows";
import { toast } from "@/web/stores/toast-store";
import { statusMatches, type UploadsFilter } from "../api/review-cache";
import { ROW_HEIGHT, type RowHandlers } from "../components/upload-row";
import { type QueueCommand, queueKeymap } from "../queue-keymap";
import { cursorIndex, initialQueueState, queueReducer } from "../state/queue-state";
import { approvalRisk, type ReviewNotes, reviewProblem } from "../state/review-undo";
import { useReview } from "./use-review";

/** Within this many rows of the last one loaded, the next page is asked for. */
const LOAD_AHEAD = 15;

/** The uploads a queue shows and how it pages through the rest. */
export interface QueueSource {
  uploads: PortalUpload[];
  /** What the list shows: a decided row that no longer matches leaves it. */
  filterStatus: UploadsFilter["status"];
  hasMore: boolean;
  loadingMore: boolean;
  /** The last page asked for failed: loading more waits for Try again. */
  loadMoreError: unknown;
  onLoadMore?(): void;
  /** The upload's portal when known: its fields' labels, where approval moves a folder. */
  portalOf(portalId: string): Portal | undefined;
}

/**
 * The review queue's state and commands: the active row (keyboard moves and decisions take
 * focus to it), the rendered rows, decisions, the reject note, and the keys of `queue-keymap.ts`.
 */
export function useReviewQueue(source: QueueSource) {
  const { uploads, portalOf } = source;
  const [state, dispatch] = useReducer(queueReducer, initialQueueState);
  const labelOf = useCallback(
    (portalId: string, key: string) =>
      portalOf(portalId)?.fields.find((f) => f.key === key)?.label ?? key,
    [portalOf],
  );
  const [shortcuts, setShortcuts] = useState(false);
  /** An approval waiting for the reviewer's yes: its media check failed or has not run. */
  const [confirming, setConfirming] = useState<PortalUpload | null>(null);
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

  const current = { ...source, ids, virtual };
  const latest = useRef(current);
  latest.current = current;

  const wantFocus = useActiveRowFocus(scrollRef, activeIndex, virtual.scrollToIndex);

  const decide = useCallback(
    (upload: PortalUpload, decision: ReviewDecision, notes?: ReviewNotes, confirmed = false) => {
      if (decision === "approved" && !confirmed && approvalRisk(upload)) {
        setConfirming(upload);
        return;
      }
      const { ids, filterStatus, portalOf } = latest.current;
      if (!review(upload, decision, notes, portalOf(upload.portalId)?.approvedPath)) return;
      wantFocus.current = true;
      dispatch({
        type: "decided",
        ids,
        id: upload.id,
        hides: !statusMatches(decision, filterStatus),
      });
    },
    [review, wantFocus],
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
    [decide, wantFocus],
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
  useQueueKeys(commands, scrollRef);
  useLoadAhead(source, virtual.rows.at(-1)?.index);

  return {
    state,
    scrollRef,
    virtual,
    activeIndex,
    active,
    labelOf,
    decide,
    handlers,
    shortcuts,
    setShortcuts,
    confirming,
    setConfirming,
  };
}

/**
 * Keyboard moves and decisions take focus to the active row, once it is rendered: set the
 * returned flag and the next render scrolls the row into view and focuses it.
 */
function useActiveRowFocus(
  scrollRef: RefObject<HTMLDivElement | null>,
  activeIndex: number,
  scrollToIndex: (index: number, align: "auto") => void,
) {
  const wantFocus = useRef(false);
  useLayoutEffect(() => {
    if (!wantFocus.current) return;
    if (activeIndex < 0) {
      wantFocus.current = false;
      return;
    }
    scrollToIndex(activeIndex, "auto");
    const row = scrollRef.current?.querySelector<HTMLElement>(
      `article[data-index="${activeIndex}"]`,
    );
    if (row) {
      row.focus({ preventScroll: true });
      wantFocus.current = false;
    }
  });
  return wantFocus;
}

/** The queue's keys, read from the whole document except where another control owns them. */
function useQueueKeys(
  commands: Record<QueueCommand, () => unknown>,
  scrollRef: RefObject<HTMLDivElement | null>,
) {
  useKeymap(queueKeymap, commands, {
    alsoIgnore: "[role=listbox], [data-slot=toast]",
    holds: (_, target) => scrollRef.current?.contains(target) ?? false,
  });
}

/** The next page, asked for when the rendered rows come within `LOAD_AHEAD` of the last. */
function useLoadAhead(
  { hasMore, loadingMore, loadMoreError, uploads, onLoadMore }: QueueSource,
  lastRendered: number | undefined,
) {
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
}
