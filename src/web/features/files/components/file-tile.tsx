// biome-ignore-all lint/a11y/useSemanticElements: virtualized rows are absolutely positioned divs; <table> layout cannot hold them
// biome-ignore-all lint/a11y/useFocusableInteractive: the grid keeps focus and points at the active tile with aria-activedescendant
// biome-ignore-all lint/a11y/useKeyWithClickEvents: the grid's own keydown handler drives tiles from the keyboard
import { memo, type ReactNode } from "react";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { FileThumb } from "./file-thumb";
import { dropTargetClass, entrySize, NameOrEditor, RowCheckbox, type RowProps } from "./row-parts";

export const TILE_ROW_HEIGHT = 132;
export const TILE_MIN_WIDTH = 150;
export const TILE_PADDING = 8;

/** One row of tiles, placed by the virtualizer at `start`. */
export function TileRow({
  index,
  start,
  perRow,
  children,
}: {
  index: number;
  start: number;
  perRow: number;
  children: ReactNode;
}) {
  return (
    <div
      role="row"
      aria-rowindex={index + 1}
      className="absolute left-0 top-0 grid w-full gap-2 px-2"
      style={{
        height: TILE_ROW_HEIGHT,
        transform: `translateY(${start}px)`,
        gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))`,
      }}
    >
      {children}
    </div>
  );
}

/** One entry as a tile of the grid view. */
export const FileTile = memo(function FileTile({
  id,
  index,
  entry,
  selected,
  active,
  renaming,
  handlers,
}: RowProps) {
  return (
    <div
      id={id}
      role="gridcell"
      aria-selected={selected}
      aria-label={entry ? undefined : "Loading"}
      data-index={index}
      draggable={entry !== undefined && !renaming}
      className={cn(
        "group relative flex min-w-0 cursor-default select-none flex-col items-center gap-1 rounded-md border p-2 text-center text-sm",
        selected ? "border-primary/40 bg-selected" : "border-transparent hover:bg-accent",
        active && "ring-1 ring-ring/60",
        renaming && "z-20",
        dropTargetClass,
      )}
      onClick={(e) => handlers.click(e, index, entry)}
      onDoubleClick={() => entry && !renaming && handlers.open(entry)}
      onContextMenu={(e) => handlers.contextMenu(e, index, entry)}
    >
      {entry ? (
        <>
          <RowCheckbox
            entry={entry}
            index={index}
            checked={selected}
            onClick={handlers.checkbox}
            className={cn(
              "absolute left-2 top-2",
              // Touch screens have no hover to reveal it.
              !selected &&
                "opacity-0 group-hover:opacity-100 focus-visible:opacity-100 pointer-coarse:opacity-100",
            )}
          />
          <FileThumb entry={entry} className="h-16 w-full" iconClassName="size-10" />
          <div className="relative flex w-full min-w-0 justify-center">
            <NameOrEditor entry={entry} renaming={renaming} onRenameDone={handlers.renameDone} />
          </div>
          <span className="text-xs text-muted-foreground">{entrySize(entry)}</span>
        </>
      ) : (
        <>
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-4 w-3/4" />
        </>
      )}
    </div>
  );
});
