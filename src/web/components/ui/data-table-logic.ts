/**
 * The table's arithmetic, apart from React so it is tested on its own: which columns fit the
 * table's width, and how much room the rows above and below the rendered ones take.
 */

/** Widths of the table itself (not the window): Tailwind's breakpoints, applied to the table. */
export const tableBreakpoints = { sm: 640, md: 768, lg: 1024, xl: 1280 } as const;
export type TableBreakpoint = keyof typeof tableBreakpoints;

/**
 * The columns shown at `width`: one with `hideBelow` goes when the table is narrower than that
 * breakpoint, so a phone keeps the name and drops what is secondary. Before the table has been
 * measured (width 0) every column that can go does, and nothing wider ever flashes.
 */
export function visibleColumns<C extends { hideBelow?: TableBreakpoint }>(
  columns: readonly C[],
  width: number,
): C[] {
  return columns.filter((c) => !c.hideBelow || width >= tableBreakpoints[c.hideBelow]);
}

/**
 * Heights of the spacer rows above and below the rendered span `[first, last]`, so the
 * scrollbar is that of every row; `null` when nothing is rendered.
 */
export function spacerHeights(
  span: [number, number] | null,
  count: number,
  rowHeight: number,
): { before: number; after: number } {
  if (!span) return { before: 0, after: 0 };
  return { before: span[0] * rowHeight, after: Math.max(0, count - 1 - span[1]) * rowHeight };
}

/** Within this many rows of the end, a table that loads on demand asks for more. */
export const LOAD_MORE_WITHIN = 10;

export function nearEnd(lastRendered: number | undefined, count: number): boolean {
  return lastRendered !== undefined && lastRendered >= count - LOAD_MORE_WITHIN;
}

/** The row index an arrow, Home or End key moves to from `index`, or null for any other key. */
export function rowAfterKey(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return Math.min(count - 1, index + 1);
    case "ArrowUp":
      return Math.max(0, index - 1);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}
