import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { cn } from "@/web/lib/cn";
import { useFixedRows } from "@/web/lib/use-fixed-rows";
import {
  nearEnd,
  rowAfterKey,
  spacerHeights,
  type TableBreakpoint,
  visibleColumns,
} from "./data-table-logic";
import { NativeCheckbox } from "./native-checkbox";
import { SkeletonRows } from "./skeleton";

export type { TableBreakpoint };

const HEADER_HEIGHT = 36;

export interface DataTableColumn<T> {
  id: string;
  /** The header's text; a column of controls still names itself (visually hidden if need be). */
  header: ReactNode;
  cell(row: T): ReactNode;
  /** Width and alignment for the header and every cell, e.g. `"w-24 text-right"`. */
  className?: string;
  /** Dropped while the table is narrower than this breakpoint (of its own width). */
  hideBelow?: TableBreakpoint;
  /** The cell that names its row: a row header, kept at every width. */
  primary?: boolean;
}

export interface DataTableSelection<T> {
  selected: ReadonlySet<string>;
  onToggle(key: string): void;
  onToggleAll(): void;
  /** The row checkbox's accessible name, e.g. "Select Projects/cut.mov". */
  rowLabel(row: T): string;
  allLabel: string;
}

/**
 * Give a row's main control (a button or link in its primary cell) these classes and the whole
 * row becomes its click target, while keyboard and screen readers still meet one real control.
 * Any other control in the row needs `relative z-[1]` to stay clickable above it.
 */
export const rowActionClass =
  "after:absolute after:inset-0 after:content-[''] focus-visible:outline-none";

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The one table of the console: a real `<table>` (read and picked from, not a grid to navigate),
 * every row one height so only the rows in view are rendered (`use-fixed-rows`), columns that
 * drop below a width of the table, optional selection, ↑ ↓ Home End between rows, a loading
 * skeleton and an empty state.
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  rowHeight,
  selection,
  isCurrent,
  loading,
  loadingLabel,
  empty,
  footer,
  onEndReached,
  fit = "fill",
  readOnly = false,
  className,
}: {
  /** The table's caption (visually hidden): what the rows are. */
  label: string;
  columns: readonly DataTableColumn<T>[];
  rows: readonly T[];
  rowKey(row: T): string;
  rowHeight: number;
  selection?: DataTableSelection<T>;
  /** The row whose details are open elsewhere (a drawer): marked `aria-current`. */
  isCurrent?(row: T): boolean;
  loading?: boolean;
  loadingLabel?: string;
  /** Shown instead of the table when there are no rows (in the same scroller, which stays). */
  empty?: ReactNode;
  /** Below the last row, e.g. "Loading more…". */
  footer?: ReactNode;
  /** Called when a row near the end is rendered, for tables that load on demand. */
  onEndReached?(): void;
  /**
   * `fill`: the table takes what is left of a page that does not scroll. `section`: the page
   * scrolls (a phone, with filters and banners above) and the table keeps room for a few rows.
   */
  fit?: "fill" | "section";
  /**
   * Rows without a control of their own: the scrolling region itself takes focus (and a name),
   * or a keyboard could not scroll it.
   */
  readOnly?: boolean;
  className?: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const shown = visibleColumns(columns, useWidth(scrollRef));
  const span = 1 + shown.length - (selection ? 0 : 1);
  const virtualizer = useFixedRows(scrollRef, {
    count: rows.length,
    size: rowHeight,
    overscan: 10,
    paddingStart: HEADER_HEIGHT,
    paddingEnd: 0,
    scrollPaddingStart: HEADER_HEIGHT,
    scrollPaddingEnd: 0,
  });
  const slots = virtualizer.rows;
  const first = slots[0]?.index;
  const last = slots.at(-1)?.index;
  const { before, after } = spacerHeights(
    first === undefined || last === undefined ? null : [first, last],
    rows.length,
    rowHeight,
  );

  useEffect(() => {
    if (onEndReached && nearEnd(last, rows.length)) onEndReached();
  }, [onEndReached, last, rows.length]);

  const onKeyDown = useRowKeys(scrollRef, rows.length, (index) =>
    virtualizer.scrollToIndex(index, "auto"),
  );

  const selectedHere = selection
    ? rows.reduce((n, r) => n + (selection.selected.has(rowKey(r)) ? 1 : 0), 0)
    : 0;
  return (
    <div
      ref={scrollRef}
      data-slot="data-table"
      {...(readOnly ? { tabIndex: 0, role: "region", "aria-label": label } : {})}
      className={cn(
        "relative flex-1 overflow-auto",
        fit === "fill" ? "min-h-0" : "min-h-72",
        readOnly &&
          "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
        className,
      )}
    >
      {loading ? (
        <SkeletonRows
          label={loadingLabel ?? `Loading ${label.toLowerCase()}`}
          rows={6}
          rowClassName="h-8"
          className="p-3"
        />
      ) : rows.length === 0 && empty ? (
        empty
      ) : (
        <table
          data-slot="data-table-table"
          aria-rowcount={rows.length + 1}
          className="w-full table-fixed border-collapse text-sm"
        >
          <caption className="sr-only">{label}</caption>
          <thead
            data-slot="data-table-header"
            className="sticky top-0 z-10 bg-background shadow-[0_1px_0_var(--border)]"
          >
            <HeaderRow
              columns={shown}
              selection={selection}
              checked={
                selectedHere === 0 ? false : selectedHere === rows.length ? true : "indeterminate"
              }
            />
          </thead>
          <tbody onKeyDown={onKeyDown}>
            {before > 0 && (
              // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty spacer, not a row to count or read
              <tr aria-hidden="true" style={{ height: before }}>
                <td colSpan={span} />
              </tr>
            )}
            {slots.map(({ index }) => {
              const row = rows[index]!;
              return (
                <BodyRow
                  key={rowKey(row)}
                  row={row}
                  rowKey={rowKey(row)}
                  index={index}
                  height={rowHeight}
                  columns={shown}
                  selection={selection}
                  current={isCurrent?.(row) ?? false}
                />
              );
            })}
            {after > 0 && (
              // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty spacer, not a row to count or read
              <tr aria-hidden="true" style={{ height: after }}>
                <td colSpan={span} />
              </tr>
            )}
          </tbody>
        </table>
      )}
      {footer}
    </div>
  );
}

/** The table's width, kept as it changes: which columns fit depends on it. */
function useWidth(ref: RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * ↑ ↓ Home End between rows. Keyboard moves keep the column: from a row's checkbox to the next
 * row's, from its actions to the next row's actions. A row not rendered yet is focused once it is.
 */
function useRowKeys(
  scrollRef: RefObject<HTMLElement | null>,
  count: number,
  scrollTo: (index: number) => void,
) {
  const pendingFocus = useRef<{ index: number; slot: number } | null>(null);
  const focusIn = (index: number, slot: number) => {
    const row = scrollRef.current?.querySelector(`tr[data-index="${index}"]`);
    if (!row) return false;
    const controls = row.querySelectorAll<HTMLElement>(focusable);
    (controls[Math.min(slot, controls.length - 1)] ?? null)?.focus();
    return true;
  };
  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    if (pending && focusIn(pending.index, pending.slot)) pendingFocus.current = null;
  });
  return (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const target = e.target as HTMLElement;
    if (e.altKey || e.ctrlKey || e.metaKey || target.matches("input:not([type=checkbox]), select"))
      return;
    const row = target.closest<HTMLElement>("tr[data-index]");
    if (!row) return;
    const index = rowAfterKey(e.key, Number(row.dataset.index), count);
    if (index === null) return;
    e.preventDefault();
    const slot = [...row.querySelectorAll(focusable)].findIndex((el) => el.contains(target));
    scrollTo(index);
    if (!focusIn(index, Math.max(0, slot))) pendingFocus.current = { index, slot };
  };
}

function HeaderRow<T>({
  columns,
  selection,
  checked,
}: {
  columns: readonly DataTableColumn<T>[];
  selection?: DataTableSelection<T>;
  checked: boolean | "indeterminate";
}) {
  return (
    <tr
      aria-rowindex={1}
      style={{ height: HEADER_HEIGHT }}
      className="text-left text-xs text-muted-foreground"
    >
      {selection && (
        <th scope="col" className="w-10 px-3">
          <NativeCheckbox
            aria-label={selection.allLabel}
            checked={checked}
            onChange={selection.onToggleAll}
          />
        </th>
      )}
      {columns.map((c) => (
        <th key={c.id} scope="col" className={cn("px-2 font-medium", c.className)}>
          {c.header}
        </th>
      ))}
    </tr>
  );
}

function BodyRow<T>({
  row,
  rowKey: key,
  index,
  height,
  columns,
  selection,
  current,
}: {
  row: T;
  rowKey: string;
  index: number;
  height: number;
  columns: readonly DataTableColumn<T>[];
  selection?: DataTableSelection<T>;
  current: boolean;
}) {
  const checked = selection?.selected.has(key) ?? false;
  return (
    <tr
      data-slot="data-table-row"
      data-index={index}
      data-state={checked ? "selected" : undefined}
      aria-rowindex={index + 2}
      aria-current={current || undefined}
      style={{ height }}
      className={cn(
        "relative border-b border-border has-[:focus-visible]:outline-2 has-[:focus-visible]:-outline-offset-2 has-[:focus-visible]:outline-ring",
        checked || current ? "bg-selected" : "hover:bg-accent",
      )}
    >
      {selection && (
        <td className="px-3">
          <NativeCheckbox
            className="relative z-[1]"
            aria-label={selection.rowLabel(row)}
            checked={checked}
            onChange={() => selection.onToggle(key)}
          />
        </td>
      )}
      {columns.map((c) =>
        c.primary ? (
          <th
            key={c.id}
            scope="row"
            className={cn("truncate px-2 text-left font-normal", c.className)}
          >
            {c.cell(row)}
          </th>
        ) : (
          <td key={c.id} className={cn("truncate px-2", c.className)}>
            {c.cell(row)}
          </td>
        ),
      )}
    </tr>
  );
}
