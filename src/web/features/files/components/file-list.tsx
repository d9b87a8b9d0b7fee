// biome-ignore-all lint/a11y/useSemanticElements: virtualized rows are absolutely positioned divs; <table> layout cannot hold them
// biome-ignore-all lint/a11y/useFocusableInteractive: the grid keeps focus and points at the active row with aria-activedescendant
// biome-ignore-all lint/a11y/useKeyWithClickEvents: the grid's own keydown handler drives rows from the keyboard
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { ArrowDownIcon, ArrowUpIcon } from "lucide-react";
import {
  type KeyboardEvent,
  type MouseEvent,
  memo,
  type RefObject,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { FileEntry, FileListing } from "@/contract/files";
import type { FileSortField } from "@/contract/rules";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { Skeleton } from "@/web/components/ui/skeleton";
import type { FolderView } from "@/web/features/files/api/files-keys";
import {
  FILES_PAGE_SIZE,
  filesPageQueryOptions,
  readFilesPages,
} from "@/web/features/files/api/list-files";
import { locateEntry } from "@/web/features/files/state/locate-entry";
import type { EntryRef } from "@/web/features/files/state/name-order";
import {
  isSelected,
  planRange,
  rangeBetween,
  rangeSelection,
  type Selection,
  selectAll,
  selectedCount,
  selectionState,
  selectOnly,
  selectPaths,
  toggle,
  union,
} from "@/web/features/files/state/selection";
import {
  selectionScope,
  useSelection,
  useSelectionStore,
} from "@/web/features/files/state/selection-store";
import type { FilesLayout } from "@/web/features/files/state/view-store";
import { cn } from "@/web/lib/cn";
import { formatBytes, formatDateTime } from "@/web/lib/format";
import { useFixedRows } from "@/web/lib/use-fixed-rows";
import { describeType, FileTypeIcon } from "./file-icon";
import { RenameInput } from "./rename-input";
import { useThrottledValue } from "./use-throttled-value";

const ROW_HEIGHT = 36;
const TILE_ROW_HEIGHT = 132;
const TILE_MIN_WIDTH = 150;
const TILE_PADDING = 8;
const SELECTION_BAR_ROOM = 64;
const columns = "grid grid-cols-[1.25rem_minmax(0,1fr)_8rem_7rem_11rem] items-center gap-3 px-4";

export interface FileListActions {
  onOpen(entry: FileEntry): void;
  onParent(): void;
  onSort(sort: FileSortField): void;
  /** The row under the keyboard cursor (what Details shows). */
  onActiveEntry(entry: FileEntry | null): void;
  onRename(entry: FileEntry): void;
  onRenameDone(renamed: EntryRef | null): void;
  onTrash(): void;
  onDeletePermanently(): void;
  onContextMenu(point: { x: number; y: number }): void;
  onRevealed(): void;
}

interface FileListProps {
  workspaceId: string;
  view: FolderView;
  firstPage: FileListing;
  layout: FilesLayout;
  gridRef: RefObject<HTMLDivElement | null>;
  /** Path of the entry being renamed in place. */
  renaming: string | null;
  /** An entry to select and scroll to (a search result, a renamed entry). */
  reveal: EntryRef | null;
  actions: FileListActions;
}

/**
 * A folder of any size, as rows or as tiles: the virtualizer knows the exact total from the first
 * page and renders only what is in view; each page is fetched when it comes into view (and kept
 * briefly), so the middle of a 100,000-entry folder costs one request, not five hundred.
 * Selection lives in a store keyed by path ("all except" for select-all and long ranges), so it
 * survives scrolling and never enumerates the folder.
 */
export function FileList({
  workspaceId,
  view,
  firstPage,
  layout,
  gridRef,
  renaming,
  reveal,
  actions,
}: FileListProps) {
  const queryClient = useQueryClient();
  const gridId = useId();
  const [activeState, setActive] = useState(0);
  const [width, setWidth] = useState(0);
  const total = firstPage.total;
  const active = Math.min(activeState, Math.max(0, total - 1));
  const canWrite = firstPage.access === "write";
  const scope = selectionScope(view);
  const selection = useSelection(scope);
  const setSelection = useSelectionStore((s) => s.set);
  const tiles = layout === "grid";

  useLayoutEffect(() => {
    const el = gridRef.current;
    if (!el || !tiles) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, [gridRef, tiles]);
  const perRow = tiles ? Math.max(1, Math.floor((width - 2 * TILE_PADDING) / TILE_MIN_WIDTH)) : 1;
  const rowCount = Math.ceil(total / perRow);

  const virtualizer = useFixedRows(gridRef, {
    count: rowCount,
    size: tiles ? TILE_ROW_HEIGHT : ROW_HEIGHT,
    overscan: tiles ? 3 : 10,
    // List: the sticky header takes the first row's height inside the same scroller.
    paddingStart: tiles ? TILE_PADDING : ROW_HEIGHT,
    scrollPaddingStart: tiles ? TILE_PADDING : ROW_HEIGHT,
    // Room for the floating selection bar below the last row.
    paddingEnd: SELECTION_BAR_ROOM,
    scrollPaddingEnd: SELECTION_BAR_ROOM,
  });
  const rows = virtualizer.rows;
  const firstVisiblePage = Math.floor(((rows[0]?.index ?? 0) * perRow) / FILES_PAGE_SIZE);
  const lastVisiblePage = Math.floor(
    Math.min(total - 1, ((rows.at(-1)?.index ?? 0) + 1) * perRow - 1) / FILES_PAGE_SIZE,
  );
  const wanted = useThrottledValue(`${firstVisiblePage}:${lastVisiblePage}`, 150);
  const pages = useMemo(() => {
    const [from = 0, to = 0] = wanted.split(":").map(Number);
    const list: number[] = [];
    for (let p = from; p <= to; p++) if (p > 0) list.push(p);
    return list;
  }, [wanted]);
  // Subscribes the list to the pages in view; rows read whatever is cached, in view or not.
  useQueries({ queries: pages.map((p) => filesPageQueryOptions(workspaceId, view, p)) });

  const entryAt = (index: number): FileEntry | undefined => {
    const page = Math.floor(index / FILES_PAGE_SIZE);
    const data =
      page === 0
        ? firstPage
        : queryClient.getQueryData(filesPageQueryOptions(workspaceId, view, page).queryKey);
    return data?.items[index - page * FILES_PAGE_SIZE];
  };

  /** Entries from..to (inclusive), reading pages that are not cached yet. */
  const loadRange = async (from: number, to: number): Promise<FileEntry[]> => {
    const firstPageIndex = Math.floor(from / FILES_PAGE_SIZE);
    const loaded = await readFilesPages(
      queryClient,
      workspaceId,
      view,
      firstPageIndex,
      Math.floor(to / FILES_PAGE_SIZE),
    );
    const offset = firstPageIndex * FILES_PAGE_SIZE;
    return loaded.flatMap((p) => p.items).slice(from - offset, to - offset + 1);
  };

  const activeEntry = entryAt(active);
  const activeKey = activeEntry ? `${activeEntry.path}|${activeEntry.modifiedAt}` : "";
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported when the entry itself changes, not on every render
  useEffect(() => actions.onActiveEntry(activeEntry ?? null), [activeKey]);

  /**
   * Counts selections: one that waited for pages applies only if nothing was selected since
   * (a slow range must not overwrite a later click, nor an earlier Shift+arrow a later one).
   */
  const selectionTurn = useRef(0);
  const select = (next: Selection, anchor?: number) => {
    selectionTurn.current++;
    setSelection(scope, next, anchor);
  };
  const anchor = () => {
    const s = useSelectionStore.getState();
    return s.scope === scope ? Math.min(s.anchor, total - 1) : 0;
  };

  const selectRange = async (from: number, to: number, additive: boolean) => {
    const turn = ++selectionTurn.current;
    const [lo, hi] = rangeBetween(from, to);
    const plan = planRange(lo, hi, total, FILES_PAGE_SIZE);
    const paths: string[] = [];
    for (const [a, b] of plan.spans) for (const e of await loadRange(a, b)) paths.push(e.path);
    if (turn !== selectionTurn.current) return;
    const range = rangeSelection(plan, paths);
    const current = useSelectionStore.getState();
    const base = current.scope === scope ? current.selection : selection;
    select(additive ? union(base, range) : range);
  };

  const selectOnlyAt = async (index: number) => {
    const turn = ++selectionTurn.current;
    const entry = entryAt(index) ?? (await loadRange(index, index))[0];
    if (entry && turn === selectionTurn.current) select(selectOnly(entry.path), index);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per entry to reveal
  useEffect(() => {
    if (!reveal) return;
    let cancelled = false;
    void locateEntry(queryClient, workspaceId, view, total, reveal).then((index) => {
      if (cancelled) return;
      if (index !== null) {
        setActive(index);
        virtualizer.scrollToIndex(Math.floor(index / perRow), "center");
      }
      select(selectOnly(reveal.path), index ?? 0);
      actions.onRevealed();
    });
    return () => {
      cancelled = true;
    };
  }, [reveal]);

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(total - 1, index));
    setActive(next);
    virtualizer.scrollToIndex(Math.floor(next / perRow), "auto");
    return next;
  };

  const onRowClick = (e: MouseEvent, index: number, entry: FileEntry | undefined) => {
    if (!entry) return;
    setActive(index);
    if (e.shiftKey) void selectRange(anchor(), index, e.ctrlKey || e.metaKey);
    else if (e.ctrlKey || e.metaKey) select(toggle(selection, entry.path), index);
    else select(selectOnly(entry.path), index);
  };

  const onRowContextMenu = (e: MouseEvent, index: number, entry: FileEntry | undefined) => {
    e.preventDefault();
    if (!entry) return;
    setActive(index);
    if (!isSelected(selection, entry.path)) select(selectOnly(entry.path), index);
    actions.onContextMenu({ x: e.clientX, y: e.clientY });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // The rename field is inside the grid: its keys are its own.
    if ((e.target as HTMLElement).tagName === "INPUT") return;
    const mod = e.ctrlKey || e.metaKey;
    const visibleRows = Math.max(
      1,
      Math.floor((gridRef.current?.clientHeight ?? 400) / (tiles ? TILE_ROW_HEIGHT : ROW_HEIGHT)) -
        1,
    );
    const handled = (fn: () => void) => {
      e.preventDefault();
      fn();
    };
    /** Arrow-style moves: plain selects the new row, Shift extends, Ctrl/Cmd only moves. */
    const step = (to: number) =>
      handled(() => {
        const from = anchor();
        const next = moveTo(to);
        if (e.shiftKey) void selectRange(from, next, false);
        else if (!mod) void selectOnlyAt(next);
      });
    const entry = entryAt(active);
    if (e.key === "ArrowUp" && e.altKey) handled(actions.onParent);
    else if (e.key === "ArrowDown") step(active + perRow);
    else if (e.key === "ArrowUp") step(active - perRow);
    else if (e.key === "ArrowRight" && tiles) step(active + 1);
    else if (e.key === "ArrowLeft" && tiles) step(active - 1);
    else if (e.key === "PageDown") step(active + visibleRows * perRow);
    else if (e.key === "PageUp") step(active - visibleRows * perRow);
    else if (e.key === "Home") step(0);
    else if (e.key === "End") step(total - 1);
    else if (e.key.toLowerCase() === "a" && mod) handled(() => select(selectAll()));
    else if (e.key === "Escape" && selectedCount(selection, total) > 0)
      handled(() => select(selectPaths([])));
    else if (e.key === " " && entry) handled(() => select(toggle(selection, entry.path), active));
    else if (e.key === "Enter" && entry) handled(() => actions.onOpen(entry));
    else if (e.key === "F2" && entry && canWrite) handled(() => actions.onRename(entry));
    else if ((e.key === "Delete" || (e.key === "Backspace" && e.metaKey)) && canWrite)
      handled(e.shiftKey ? actions.onDeletePermanently : actions.onTrash);
    else if (e.key === "Backspace") handled(actions.onParent);
    else if ((e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey)) && entry)
      handled(() => {
        if (!isSelected(selection, entry.path)) select(selectOnly(entry.path), active);
        const rect = document.getElementById(`${gridId}-${active}`)?.getBoundingClientRect();
        actions.onContextMenu({ x: rect ? rect.left + 24 : 0, y: rect ? rect.bottom : 0 });
      });
  };

  const onCheckboxClick = (e: MouseEvent, index: number, entry: FileEntry) => {
    e.stopPropagation();
    setActive(index);
    if (e.shiftKey) void selectRange(anchor(), index, true);
    else select(toggle(selection, entry.path), index);
  };

  const rowCheckbox = (entry: FileEntry, index: number, className?: string) => (
    <RowCheckbox
      entry={entry}
      index={index}
      checked={isSelected(selection, entry.path)}
      className={className}
      onClick={onCheckboxClick}
    />
  );

  // Rows are memoized so a scroll frame renders only the rows it brings into view; they call
  // the list's current handlers through this stable object.
  const latest = useRef<RowHandlers>(null!);
  latest.current = {
    click: onRowClick,
    contextMenu: onRowContextMenu,
    open: (entry) => renaming !== entry.path && actions.onOpen(entry),
    checkbox: onCheckboxClick,
    renameDone: actions.onRenameDone,
  };
  const rowHandlers = useMemo<RowHandlers>(
    () => ({
      click: (...a) => latest.current.click(...a),
      contextMenu: (...a) => latest.current.contextMenu(...a),
      open: (entry) => latest.current.open(entry),
      checkbox: (...a) => latest.current.checkbox(...a),
      renameDone: (renamed) => latest.current.renameDone(renamed),
    }),
    [],
  );

  const headerChecked = selectionState(selection, total);
  const headerCheckbox = (
    <NativeCheckbox
      checked={headerChecked}
      aria-label="Select all"
      onChange={() => select(headerChecked === true ? selectPaths([]) : selectAll())}
    />
  );

  const nameOrEditor = (entry: FileEntry) => (
    <NameOrEditor
      entry={entry}
      renaming={renaming === entry.path}
      onRenameDone={actions.onRenameDone}
    />
  );

  const sortHeader = (field: FileSortField, label: string, className?: string) => {
    const current = view.sort === field;
    const Arrow = view.order === "desc" ? ArrowDownIcon : ArrowUpIcon;
    return (
      <div
        role="columnheader"
        aria-sort={current ? (view.order === "asc" ? "ascending" : "descending") : "none"}
        className={className}
      >
        <button
          type="button"
          onClick={() => actions.onSort(field)}
          className="inline-flex items-center gap-1 rounded font-medium hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {label}
          {current && <Arrow className="size-3" aria-hidden="true" />}
        </button>
      </div>
    );
  };

  const tile = (index: number) => {
    const entry = entryAt(index);
    const selected = entry ? isSelected(selection, entry.path) : false;
    return (
      <div
        key={index}
        id={`${gridId}-${index}`}
        role="gridcell"
        aria-selected={selected}
        aria-label={entry ? undefined : "Loading"}
        data-index={index}
        className={cn(
          "group relative flex min-w-0 cursor-default select-none flex-col items-center gap-1 rounded-md border p-2 text-center text-sm",
          selected ? "border-primary/40 bg-selected" : "border-transparent hover:bg-accent",
          index === active && "ring-1 ring-ring/60",
          renaming === entry?.path && "z-20",
        )}
        onClick={(e) => onRowClick(e, index, entry)}
        onDoubleClick={() => entry && renaming !== entry.path && actions.onOpen(entry)}
        onContextMenu={(e) => onRowContextMenu(e, index, entry)}
      >
        {entry ? (
          <>
            {rowCheckbox(
              entry,
              index,
              cn(
                "absolute left-2 top-2",
                !selected && "opacity-0 group-hover:opacity-100 focus-visible:opacity-100",
              ),
            )}
            <FileTypeIcon entry={entry} className="mt-2 size-10 shrink-0" />
            <div className="relative flex w-full min-w-0 justify-center">{nameOrEditor(entry)}</div>
            <span className="text-xs text-muted-foreground">
              {entry.type === "folder"
                ? `${entry.childCount ?? 0} item${entry.childCount === 1 ? "" : "s"}`
                : formatBytes(entry.sizeBytes)}
            </span>
          </>
        ) : (
          <>
            <Skeleton className="mt-2 size-10" />
            <Skeleton className="h-4 w-3/4" />
          </>
        )}
      </div>
    );
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {tiles && (
        <div className="flex items-center gap-2 border-b border-border px-4 py-2 text-xs text-muted-foreground">
          {headerCheckbox}
          <span aria-hidden="true">Select all</span>
        </div>
      )}
      <div
        ref={gridRef}
        role="grid"
        aria-label={`Contents of ${view.path || "the workspace root"}`}
        aria-multiselectable="true"
        aria-rowcount={tiles ? rowCount : total + 1}
        aria-colcount={tiles ? perRow : 5}
        tabIndex={0}
        aria-activedescendant={total > 0 ? `${gridId}-${active}` : undefined}
        onKeyDown={onKeyDown}
        data-testid="file-list-scroller"
        className="min-h-0 flex-1 overflow-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
      >
        <div style={{ height: virtualizer.totalSize, position: "relative" }}>
          {!tiles && (
            <div
              role="rowgroup"
              className="sticky top-0 z-30 border-b border-border bg-background text-xs text-muted-foreground"
            >
              <div role="row" aria-rowindex={1} className={cn(columns, "h-9")}>
                <div role="columnheader" className="flex items-center">
                  {headerCheckbox}
                </div>
                {sortHeader("name", "Name")}
                <div role="columnheader">Type</div>
                {sortHeader("size", "Size", "text-right")}
                {sortHeader("modified", "Modified")}
              </div>
            </div>
          )}
          <div role="rowgroup">
            {tiles
              ? rows.map((row) => (
                  <div
                    key={row.index}
                    role="row"
                    aria-rowindex={row.index + 1}
                    className="absolute left-0 top-0 grid w-full gap-2 px-2"
                    style={{
                      height: TILE_ROW_HEIGHT,
                      transform: `translateY(${row.start}px)`,
                      gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))`,
                    }}
                  >
                    {Array.from({ length: Math.min(perRow, total - row.index * perRow) }, (_, i) =>
                      tile(row.index * perRow + i),
                    )}
                  </div>
                ))
              : rows.map((row) => {
                  const entry = entryAt(row.index);
                  return (
                    <ListRow
                      key={row.index}
                      id={`${gridId}-${row.index}`}
                      index={row.index}
                      start={row.start}
                      entry={entry}
                      selected={entry ? isSelected(selection, entry.path) : false}
                      active={row.index === active}
                      renaming={entry !== undefined && renaming === entry.path}
                      handlers={rowHandlers}
                    />
                  );
                })}
          </div>
        </div>
      </div>
    </div>
  );
}

interface RowHandlers {
  click(e: MouseEvent, index: number, entry: FileEntry | undefined): void;
  contextMenu(e: MouseEvent, index: number, entry: FileEntry | undefined): void;
  open(entry: FileEntry): void;
  checkbox(e: MouseEvent, index: number, entry: FileEntry): void;
  renameDone(renamed: EntryRef | null): void;
}

function RowCheckbox({
  entry,
  index,
  checked,
  className,
  onClick,
}: {
  entry: FileEntry;
  index: number;
  checked: boolean;
  className?: string;
  onClick: RowHandlers["checkbox"];
}) {
  return (
    <NativeCheckbox
      checked={checked}
      readOnly
      aria-label={`Select ${entry.name}`}
      tabIndex={-1}
      className={className}
      // Keeps focus on the grid, whose keyboard model the checkbox is part of.
      onMouseDown={(e) => e.preventDefault()}
      onClick={(e) => onClick(e, index, entry)}
    />
  );
}

function NameOrEditor({
  entry,
  renaming,
  onRenameDone,
}: {
  entry: FileEntry;
  renaming: boolean;
  onRenameDone: RowHandlers["renameDone"];
}) {
  return renaming ? (
    <RenameInput entry={entry} onDone={onRenameDone} />
  ) : (
    <span className="truncate" title={entry.name}>
      {entry.name}
    </span>
  );
}

const ListRow = memo(function ListRow({
  id,
  index,
  start,
  entry,
  selected,
  active,
  renaming,
  handlers,
}: {
  id: string;
  index: number;
  start: number;
  entry: FileEntry | undefined;
  selected: boolean;
  active: boolean;
  renaming: boolean;
  handlers: RowHandlers;
}) {
  return (
    <div
      id={id}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-index={index}
      className={cn(
        columns,
        "absolute left-0 top-0 w-full cursor-default select-none text-sm",
        selected ? "bg-selected" : "hover:bg-accent",
        active && "ring-1 ring-inset ring-ring/60",
        renaming && "z-20",
      )}
      style={{ height: ROW_HEIGHT, transform: `translateY(${start}px)` }}
      onClick={(e) => handlers.click(e, index, entry)}
      onDoubleClick={() => entry && handlers.open(entry)}
      onContextMenu={(e) => handlers.contextMenu(e, index, entry)}
    >
      {entry ? (
        <>
          <div role="gridcell" className="flex items-center">
            <RowCheckbox
              entry={entry}
              index={index}
              checked={selected}
              onClick={handlers.checkbox}
            />
          </div>
          <div role="gridcell" className="relative flex min-w-0 items-center gap-2">
            <FileTypeIcon entry={entry} className="size-4 shrink-0" />
            <NameOrEditor entry={entry} renaming={renaming} onRenameDone={handlers.renameDone} />
          </div>
          <div role="gridcell" className="truncate text-muted-foreground">
            {describeType(entry)}
          </div>
          <div role="gridcell" className="text-right tabular-nums text-muted-foreground">
            {entry.type === "folder"
              ? `${entry.childCount ?? 0} item${entry.childCount === 1 ? "" : "s"}`
              : formatBytes(entry.sizeBytes)}
          </div>
          <div role="gridcell" className="truncate text-muted-foreground">
            {formatDateTime(entry.modifiedAt)}
          </div>
        </>
      ) : (
        <>
          <div role="gridcell" />
          <div role="gridcell" aria-label="Loading">
            <Skeleton className="h-4 w-2/3" />
          </div>
          <div role="gridcell">
            <Skeleton className="h-4 w-16" />
          </div>
          <div role="gridcell">
            <Skeleton className="ml-auto h-4 w-12" />
          </div>
          <div role="gridcell">
            <Skeleton className="h-4 w-28" />
          </div>
        </>
      )}
    </div>
  );
});
