import { useEffect, useRef } from "react";
import { useViewerStore, type ViewerTarget } from "../viewer-store";

interface Where {
  timeMs: number | null;
  page: number | null;
  fps: number | null;
}

/**
 * Keeps the store's `position` (what a note form offers to attach) on where this view is in its
 * file: when it pauses, seeks while paused, turns a page, and when it closes. Not every frame
 * while playing, so a page behind the viewer does not render sixty times a second. A kept
 * version is not what notes point at, so it reports nothing.
 */
export function useReportPosition(
  target: ViewerTarget | undefined,
  where: Where,
  settled: boolean,
) {
  const last = useRef<Where>(where);
  last.current = where;
  const report = useRef(() => {});
  report.current = () => {
    if (!target || target.version) return;
    useViewerStore.getState().setPosition({
      workspaceId: target.workspaceId,
      path: target.path,
      ...last.current,
    });
  };
  // Reported again whenever the settled place changes (a seek while paused, a page turned).
  const settledAt = settled ? `${where.timeMs}/${where.page}` : null;
  useEffect(() => {
    if (settledAt !== null) report.current();
  }, [settledAt]);
  useEffect(() => () => report.current(), []);
}
