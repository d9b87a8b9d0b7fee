// biome-ignore-all lint/a11y/useSemanticElements: virtualized rows are absolutely positioned divs; <table> layout cannot hold them
// biome-ignore-all lint/a11y/useFocusableInteractive: the grid keeps focus and points at the active row with aria-activedescendant
// biome-ignore-all lint/a11y/useKeyWithClickEvents: the grid's own keydown handler drives rows from the keyboard
import { ArrowDownIcon, ArrowUpIcon } from "lucide-react";
import { memo, type ReactNode } from "react";
import { formatDateTime } from "@/browser/format";
import type { FileSortField } from "@/contract/rules";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import type { FolderView } from "@/web/lib/query-keys/files";
import { describeType } from "./file-icon";
import { FileThumb } from "./file-thumb";
import { dropTargetClass, entrySize, NameOrEditor, RowCheckbox, type RowProps } from "./row-parts";

export const ROW_HEIGHT = 36;

/**
 * Name first and always; the secondary columns join as the list (not the window: the details
 * panel takes room too) grows wide enough for them. The list is the `@container`.
 */
const columns =
  "grid items-center gap-3 px-4 grid-cols-[1.25rem_minmax(0,1fr)] @md:grid-cols-[1.25rem_minmax(0,1fr)_7rem] @xl:grid-cols-[1.25rem_minmax(0,1fr)_7rem_11rem] @3xl:grid-cols-[1.25rem_minmax(0,1fr)_8rem_7rem_11rem]";
const typeColumn = "hidden @3xl:block";
const sizeColumn = "hidden @md:block";
const modifiedColumn = "hidden @xl:block";

function SortHeader({
  field,
  label,
  view,
  onSort,
  className,
}: {
  field: FileSortField;
  label: string;
  view: FolderView;
  onSort(field: FileSortField): void;
  className?: string;
}) {
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
}

/** The list's sticky header row: select all, and the columns that sort. */
export function FileListHeader({
  view,
  onSort,
  selectAll,
}: {
  view: FolderView;
  onSort(field: FileSortField): void;
  selectAll: ReactNode;
}) {
  return (
    <div
      role="rowgroup"
      className="sticky top-0 z-30 border-b border-border bg-background text-xs text-muted-foreground"
    >
      <div role="row" aria-rowindex={1} className={cn(columns, "h-9")}>
        <div role="columnheader" className="flex items-center">
          {selectAll}
        </div>
        <SortHeader field="name" label="Name" view={view} onSort={onSort} />
        <div role="columnheader" className={typeColumn}>
          Type
        </div>
        <SortHeader
          field="size"
          label="Size"
          view={view}
          onSort={onSort}
          className={cn(sizeColumn, "text-right")}
        />
        <SortHeader
          field="modified"
          label="Modified"
          view={view}
          onSort={onSort}
          className={modifiedColumn}
        />
      </div>
    </div>
  );
}

/** One entry as a row of the list view, placed by the virtualizer at `start`. */
export const FileRow = memo(function FileRow({
  id,
  index,
  start,
  entry,
  selected,
  active,
  renaming,
  handlers,
}: RowProps & { start: number }) {
  return (
    <div
      id={id}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-index={index}
      draggable={entry !== undefined && !renaming}
      className={cn(
        columns,
        "absolute left-0 top-0 w-full cursor-default select-none text-sm",
        selected ? "bg-selected" : "hover:bg-accent",
        active && "ring-1 ring-inset ring-ring/60",
        renaming && "z-20",
        dropTargetClass,
      )}
      style={{ height: ROW_HEIGHT, transform: `translateY(${start}px)` }}
      onClick={(e) => handlers.click(e, index, entry)}
      onDoubleClick={() => entry && !renaming && handlers.open(entry)}
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
            <FileThumb entry={entry} className="size-6" iconClassName="size-4" />
            <NameOrEditor entry={entry} renaming={renaming} onRenameDone={handlers.renameDone} />
          </div>
          <div role="gridcell" className={cn(typeColumn, "truncate text-muted-foreground")}>
            {describeType(entry)}
          </div>
          <div
            role="gridcell"
            className={cn(sizeColumn, "text-right tabular-nums text-muted-foreground")}
          >
            {entrySize(entry)}
          </div>
          <div role="gridcell" className={cn(modifiedColumn, "truncate text-muted-foreground")}>
            {formatDateTime(entry.modifiedAt)}
          </div>
        </>
      ) : (
        <>
          <div role="gridcell" />
          <div role="gridcell" aria-label="Loading">
            <Skeleton className="h-4 w-2/3" />
          </div>
          <div role="gridcell" className={typeColumn}>
            <Skeleton className="h-4 w-16" />
          </div>
          <div role="gridcell" className={sizeColumn}>
            <Skeleton className="ml-auto h-4 w-12" />
          </div>
          <div role="gridcell" className={modifiedColumn}>
            <Skeleton className="h-4 w-28" />
          </div>
        </>
      )}
    </div>
  );
});
