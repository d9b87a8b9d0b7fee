import { type RefObject, useLayoutEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";

/**
 * Virtualization for rows of one fixed height, as the Files list has: which rows are in view is
 * arithmetic on the scroll position, so opening a 100,000-entry folder costs what opening a
 * 10-entry one does. (A general virtualizer measures every row when the count changes.)
 */
export interface FixedRowsOptions {
  count: number;
  size: number;
  /** Rows rendered beyond each edge of the view, so a fast scroll never shows a gap. */
  overscan: number;
  paddingStart: number;
  paddingEnd: number;
  /** Room kept clear when a row is scrolled into view: a sticky header, a floating bar. */
  scrollPaddingStart: number;
  scrollPaddingEnd: number;
}

export interface Viewport {
  top: number;
  height: number;
}

export interface RowSlot {
  index: number;
  start: number;
}

/** First and last row index to render (inclusive), or null when there are no rows. */
export function rowSpan(viewport: Viewport, o: FixedRowsOptions): [number, number] | null {
  if (o.count === 0) return null;
  const first = Math.floor((viewport.top - o.paddingStart) / o.size) - o.overscan;
  const last = Math.ceil((viewport.top + viewport.height - o.paddingStart) / o.size) + o.overscan;
  return [Math.max(0, Math.min(first, o.count - 1)), Math.max(0, Math.min(last, o.count) - 1)];
}

/** The scrollTop that brings row `index` into view, or null when it is in view already. */
export function scrollTopFor(
  index: number,
  align: "auto" | "center",
  viewport: Viewport,
  scrollHeight: number,
  o: FixedRowsOptions,
): number | null {
  const start = o.paddingStart + index * o.size;
  const end = start + o.size;
  let top: number;
  if (align === "center") top = start + o.size / 2 - viewport.height / 2;
  else if (start < viewport.top + o.scrollPaddingStart) top = start - o.scrollPaddingStart;
  else if (end > viewport.top + viewport.height - o.scrollPaddingEnd)
    top = end - viewport.height + o.scrollPaddingEnd;
  else return null;
  return Math.max(0, Math.min(top, scrollHeight - viewport.height));
}

const sameSpan = (a: [number, number] | null, b: [number, number] | null) =>
  a === b || (!!a && !!b && a[0] === b[0] && a[1] === b[1]);

export function useFixedRows(scrollRef: RefObject<HTMLElement | null>, options: FixedRowsOptions) {
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const [viewport, setViewport] = useState<Viewport>({ top: 0, height: 0 });
  const shown = useRef(viewport);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const read = (): Viewport => ({ top: el.scrollTop, height: el.clientHeight });
    const show = (next: Viewport) => {
      shown.current = next;
      setViewport(next);
    };
    const onScroll = () => {
      const next = read();
      const o = optionsRef.current;
      // Re-render only when the rows in view change, and before the frame is painted.
      if (sameSpan(rowSpan(shown.current, o), rowSpan(next, o))) return;
      flushSync(() => show(next));
    };
    show(read());
    el.addEventListener("scroll", onScroll, { passive: true });
    const observer = new ResizeObserver(() => show(read()));
    observer.observe(el);
    return () => {
      el.removeEventListener("scroll", onScroll);
      observer.disconnect();
    };
  }, [scrollRef]);

  const span = rowSpan(viewport, options);
  const rows: RowSlot[] = [];
  if (span) {
    for (let i = span[0]; i <= span[1]; i++) {
      rows.push({ index: i, start: options.paddingStart + i * options.size });
    }
  }
  return {
    rows,
    totalSize: options.paddingStart + options.count * options.size + options.paddingEnd,
    scrollToIndex(index: number, align: "auto" | "center") {
      const el = scrollRef.current;
      if (!el) return;
      const top = scrollTopFor(
        index,
        align,
        { top: el.scrollTop, height: el.clientHeight },
        el.scrollHeight,
        optionsRef.current,
      );
      if (top !== null) el.scrollTop = top;
    },
  };
}
