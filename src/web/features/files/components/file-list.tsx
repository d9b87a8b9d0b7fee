// biome-ignore-all lint/a11y/useSemanticElements: virtualized rows are absolutely positioned divs; <table> layout cannot hold them
// biome-ignore-all lint/a11y/useFocusableInteractive: the grid keeps focus and points at the active row with aria-activedescendant
// biome-ignore-all lint/a11y/useKeyWithClickEvents: the grid's own keydown handler drives rows from the keyboard
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { ArrowDownIcon, ArrowUpIcon } from "lucide-react";
import { type KeyboardEvent, useId, useMemo, useRef, useState } from "react";
import type { FileEntry, FileListing } from "@/contract/files";
import type { FileSortField } from "@/contract/rules";
import { Skeleton } from "../../../components/ui/skeleton";
import { cn } from "../../../lib/cn";
import { formatBytes, formatDateTime } from "../../../lib/format";
import type { FolderView } from "../api/files-keys";
import { FILES_PAGE_SIZE, filesPageQueryOptions } from "../api/list-files";
import { describeType, FileTypeIcon } from "./file-icon";
import { useThrottledValue } from "./use-throttled-value";

const ROW_HEIGHT = 36;
const columns = "grid grid-cols-[minmax(0,1fr)_8rem_7rem_11rem] items-center gap-3 px-4";

interface FileListProps {
  workspaceId: string;
  view: FolderView;
  firstPage: FileListing;
  onOpen(entry: FileEntry): void;
  onParent(): void;
  onSort(sort: FileSortField): void;
}

/**
 * A folder of any size: the virtualizer knows the exact total from the first page and renders
 * only the rows in view; each row's page is fetched when it comes into view (and kept briefly),
 * so the middle of a 100,000-entry folder costs one request, not five hundred.
 */
export function FileList({
  workspaceId,
  view,
  firstPage,
  onOpen,
  onParent,
  onSort,
}: FileListProps) {
  const queryClient = useQueryClient();
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridId = useId();
  const [active, setActive] = useState(0);
  const total = firstPage.total;

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // The sticky header takes the first row's height inside the same scroller.
    paddingStart: ROW_HEIGHT,
    scrollPaddingStart: ROW_HEIGHT,
  });
  const rows = virtualizer.getVirtualItems();
  const firstVisiblePage = Math.floor((rows[0]?.index ?? 0) / FILES_PAGE_SIZE);
  const lastVisiblePage = Math.floor((rows.at(-1)?.index ?? 0) / FILES_PAGE_SIZE);
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

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(total - 1, index));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: "auto" });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const pageRows = Math.max(
      1,
      Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1,
    );
    const handled = (fn: () => void) => {
      e.preventDefault();
      fn();
    };
    if (e.key === "ArrowDown") handled(() => moveTo(active + 1));
    else if (e.key === "ArrowUp" && e.altKey) handled(onParent);
    else if (e.key === "ArrowUp") handled(() => moveTo(active - 1));
    else if (e.key === "PageDown") handled(() => moveTo(active + pageRows));
    else if (e.key === "PageUp") handled(() => moveTo(active - pageRows));
    else if (e.key === "Home") handled(() => moveTo(0));
    else if (e.key === "End") handled(() => moveTo(total - 1));
    else if (e.key === "Backspace") handled(onParent);
    else if (e.key === "Enter") {
      const entry = entryAt(active);
      if (entry) handled(() => onOpen(entry));
    }
  };

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
          onClick={() => onSort(field)}
          className="inline-flex items-center gap-1 rounded font-medium hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {label}
          {current && <Arrow className="size-3" aria-hidden="true" />}
        </button>
      </div>
    );
  };

  return (
    <div
      ref={scrollRef}
      role="grid"
      aria-label={`Contents of ${view.path || "the workspace root"}`}
      aria-rowcount={total + 1}
      aria-colcount={4}
      tabIndex={0}
      aria-activedescendant={total > 0 ? `${gridId}-${active}` : undefined}
      onKeyDown={onKeyDown}
      data-testid="file-list-scroller"
      className="min-h-0 flex-1 overflow-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        <div
          role="rowgroup"
          className="sticky top-0 z-10 border-b border-border bg-background text-xs text-muted-foreground"
        >
          <div role="row" aria-rowindex={1} className={cn(columns, "h-9")}>
            {sortHeader("name", "Name")}
            <div role="columnheader">Type</div>
            {sortHeader("size", "Size", "text-right")}
            {sortHeader("modified", "Modified")}
          </div>
        </div>
        <div role="rowgroup">
          {rows.map((row) => {
            const entry = entryAt(row.index);
            const isActive = row.index === active;
            return (
              <div
                key={row.key}
                id={`${gridId}-${row.index}`}
                role="row"
                aria-rowindex={row.index + 2}
                aria-selected={isActive}
                data-index={row.index}
                className={cn(
                  columns,
                  "absolute left-0 top-0 w-full cursor-default text-sm",
                  isActive ? "bg-selected" : "hover:bg-accent",
                )}
                style={{ height: ROW_HEIGHT, transform: `translateY(${row.start}px)` }}
                onClick={() => setActive(row.index)}
                onDoubleClick={() => entry && onOpen(entry)}
              >
                {entry ? (
                  <>
                    <div role="gridcell" className="flex min-w-0 items-center gap-2">
                      <FileTypeIcon entry={entry} className="size-4 shrink-0" />
                      <span className="truncate" title={entry.name}>
                        {entry.name}
                      </span>
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
          })}
        </div>
      </div>
    </div>
  );
}
