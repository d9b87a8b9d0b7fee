import { useQueries, useQueryClient } from "@tanstack/react-query";
import { type RefObject, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { FileEntry, FileListing } from "@/contract/files";
import {
  FILES_PAGE_SIZE,
  filesPageQueryOptions,
  readFilesPages,
} from "@/web/features/files/api/list-files";
import { ROW_HEIGHT } from "@/web/features/files/components/file-row";
import {
  TILE_MIN_WIDTH,
  TILE_PADDING,
  TILE_ROW_HEIGHT,
} from "@/web/features/files/components/file-tile";
import type { FilesLayout } from "@/web/features/files/state/view-store";
import type { FolderView } from "@/web/lib/query-keys/files";
import { useFixedRows } from "@/web/lib/use-fixed-rows";
import { useThrottledValue } from "./use-throttled-value";

/** Room for the floating selection bar below the last row. */
const SELECTION_BAR_ROOM = 64;

/** The grid's inner width, observed while tiles are shown (how many fit in a row). */
function useTileWidth(gridRef: RefObject<HTMLDivElement | null>, tiles: boolean): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = gridRef.current;
    if (!el || !tiles) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, [gridRef, tiles]);
  return width;
}

/**
 * A folder of any size, as rows or rows of tiles: the exact total comes with the first page, only
 * the rows in view are rendered, and each page is fetched when it comes into view (and kept
 * briefly), so the middle of a 100,000-entry folder costs one request, not five hundred.
 */
export function useFilePages({
  workspaceId,
  view,
  firstPage,
  layout,
  gridRef,
  active,
}: {
  workspaceId: string;
  view: FolderView;
  firstPage: FileListing;
  layout: FilesLayout;
  gridRef: RefObject<HTMLDivElement | null>;
  /** The entry under the keyboard cursor, kept in view when the layout changes. */
  active: number;
}) {
  const queryClient = useQueryClient();
  const total = firstPage.total;
  const tiles = layout === "grid";
  const width = useTileWidth(gridRef, tiles);
  const perRow = tiles ? Math.max(1, Math.floor((width - 2 * TILE_PADDING) / TILE_MIN_WIDTH)) : 1;
  const rowCount = Math.ceil(total / perRow);
  const rowHeight = tiles ? TILE_ROW_HEIGHT : ROW_HEIGHT;

  const virtualizer = useFixedRows(gridRef, {
    count: rowCount,
    size: rowHeight,
    overscan: tiles ? 3 : 10,
    // List: the sticky header takes the first row's height inside the same scroller.
    paddingStart: tiles ? TILE_PADDING : ROW_HEIGHT,
    scrollPaddingStart: tiles ? TILE_PADDING : ROW_HEIGHT,
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

  const scrollToEntry = (index: number, align: "auto" | "center") =>
    virtualizer.scrollToIndex(Math.floor(index / perRow), align);

  // Tiles need the grid's width (measured after the switch) before a row can be scrolled to.
  const shownLayout = useRef(layout);
  useLayoutEffect(() => {
    if (shownLayout.current === layout || (tiles && width === 0)) return;
    shownLayout.current = layout;
    scrollToEntry(active, "center");
  });

  return {
    rows,
    totalSize: virtualizer.totalSize,
    perRow,
    rowCount,
    /** Rows that fit in the grid's height, for Page Up and Page Down. */
    visibleRows: () =>
      Math.max(1, Math.floor((gridRef.current?.clientHeight ?? 400) / rowHeight) - 1),
    /** Scrolls entry `index` into view. */
    scrollToEntry,
    entryAt,
    loadRange,
  };
}
