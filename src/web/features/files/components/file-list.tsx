// biome-ignore-all lint/a11y/useSemanticElements: a virtualized grid of absolutely positioned divs; <table> layout cannot hold them
import { type RefObject, useEffect, useId, useState } from "react";
import type { FileEntry, FileListing } from "@/contract/files";
import type { FileSortField } from "@/contract/rules";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import {
  type DropFiles,
  type DropOnto,
  gridDragProps,
} from "@/web/features/files/hooks/use-drag-move";
import { useFilePages } from "@/web/features/files/hooks/use-file-pages";
import { type ListKeyActions, useListKeyboard } from "@/web/features/files/hooks/use-list-keyboard";
import { useListSelection } from "@/web/features/files/hooks/use-list-selection";
import { useRevealEntry } from "@/web/features/files/hooks/use-reveal-entry";
import { useRowHandlers } from "@/web/features/files/hooks/use-row-handlers";
import type { EntryRef } from "@/web/features/files/state/name-order";
import {
  isSelected,
  selectAll,
  selectedCount,
  selectionState,
  selectPaths,
} from "@/web/features/files/state/selection";
import { selectionScope } from "@/web/features/files/state/selection-store";
import type { FilesLayout } from "@/web/features/files/state/view-store";
import type { FolderView } from "@/web/lib/query-keys/files";
import { FileListHeader, FileRow } from "./file-row";
import { FileTile, TileRow } from "./file-tile";
import { preloadRenameInput, type RowProps } from "./row-parts";

export interface FileListActions extends Omit<ListKeyActions, "onMenuAt"> {
  onSort(sort: FileSortField): void;
  /** The entry under the keyboard cursor (what Details shows). */
  onActiveEntry(entry: FileEntry | null): void;
  onRenameDone(renamed: EntryRef | null): void;
  onContextMenu(point: { x: number; y: number }): void;
  onRevealed(): void;
  /** Selected items dropped onto a folder row or tile. */
  onDropOnto: DropOnto;
  /** Files from the desktop dropped onto the list or a folder row (with write access). */
  onDropFiles?: DropFiles;
}

/**
 * A folder as a grid of rows or tiles (see useFilePages): the keyboard cursor, the selection and
 * the handlers rows call. The same instance serves both layouts, so switching keeps the cursor.
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
}: {
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
}) {
  const gridId = useId();
  const [activeState, setActive] = useState(0);
  const total = firstPage.total;
  const active = Math.min(activeState, Math.max(0, total - 1));
  const canWrite = firstPage.access === "write";
  const tiles = layout === "grid";
  const pages = useFilePages({ workspaceId, view, firstPage, layout, gridRef, active });
  const { entryAt, perRow } = pages;
  const scope = selectionScope(view);
  const sel = useListSelection({ scope, total, entryAt, loadRange: pages.loadRange });
  const { selection, select } = sel;

  const activeEntry = entryAt(active);
  const activeKey = activeEntry ? `${activeEntry.path}|${activeEntry.modifiedAt}` : "";
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported when the entry itself changes, not on every render
  useEffect(() => actions.onActiveEntry(activeEntry ?? null), [activeKey]);

  useRevealEntry({
    reveal,
    workspaceId,
    view,
    total,
    show: (index) => {
      setActive(index);
      pages.scrollToEntry(index, "center");
    },
    select,
    onRevealed: actions.onRevealed,
  });

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(total - 1, index));
    setActive(next);
    pages.scrollToEntry(next, "auto");
    return next;
  };

  const onKeyDown = useListKeyboard({
    ...sel,
    renaming: renaming !== null,
    layout,
    active,
    total,
    perRow,
    canWrite,
    visibleRows: pages.visibleRows,
    entryAt,
    moveTo,
    actions: {
      ...actions,
      onMenuAt: (index) => {
        const rect = document.getElementById(`${gridId}-${index}`)?.getBoundingClientRect();
        actions.onContextMenu({ x: rect ? rect.left + 24 : 0, y: rect ? rect.bottom : 0 });
      },
    },
  });

  const handlers = useRowHandlers({ ...sel, setActive, renaming, actions });
  const drag = gridDragProps({
    folder: view.path,
    canWrite: canWrite && renaming === null,
    selection,
    selectedCount: selectedCount(selection, total),
    entryAt,
    select,
    onDrop: actions.onDropOnto,
    onDropFiles: canWrite ? actions.onDropFiles : undefined,
  });

  const headerChecked = selectionState(selection, total);
  const headerCheckbox = (
    <NativeCheckbox
      checked={headerChecked}
      aria-label="Select all"
      onChange={() => select(headerChecked === true ? selectPaths([]) : selectAll())}
    />
  );
  const rowProps = (index: number) => {
    const entry = entryAt(index);
    return {
      id: `${gridId}-${index}`,
      index,
      entry,
      selected: entry ? isSelected(selection, entry.path) : false,
      active: index === active,
      renaming: entry !== undefined && renaming === entry.path,
      handlers,
    };
  };

  return (
    <div className="@container flex min-h-0 min-w-0 flex-1 flex-col">
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
        aria-rowcount={tiles ? pages.rowCount : total + 1}
        aria-colcount={tiles ? perRow : 5}
        tabIndex={0}
        aria-activedescendant={total > 0 ? `${gridId}-${active}` : undefined}
        onKeyDown={onKeyDown}
        onFocus={canWrite ? preloadRenameInput : undefined}
        {...drag}
        data-testid="file-list-scroller"
        className="min-h-0 flex-1 overflow-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring data-drop-target:ring-2 data-drop-target:ring-inset data-drop-target:ring-primary"
      >
        <div style={{ height: pages.totalSize, position: "relative" }}>
          {!tiles && (
            <FileListHeader view={view} onSort={actions.onSort} selectAll={headerCheckbox} />
          )}
          <div role="rowgroup">
            <GridRows tiles={tiles} pages={pages} total={total} rowProps={rowProps} />
          </div>
        </div>
      </div>
    </div>
  );
}

/** The rows in view: a row per entry, or a row of tiles per `perRow` entries. */
function GridRows({
  tiles,
  pages,
  total,
  rowProps,
}: {
  tiles: boolean;
  pages: ReturnType<typeof useFilePages>;
  total: number;
  rowProps(index: number): RowProps;
}) {
  const { perRow } = pages;
  return tiles
    ? pages.rows.map((row) => (
        <TileRow key={row.index} index={row.index} start={row.start} perRow={perRow}>
          {Array.from({ length: Math.min(perRow, total - row.index * perRow) }, (_, i) => {
            const index = row.index * perRow + i;
            return <FileTile key={index} {...rowProps(index)} />;
          })}
        </TileRow>
      ))
    : pages.rows.map((row) => (
        <FileRow key={row.index} start={row.start} {...rowProps(row.index)} />
      ));
}
