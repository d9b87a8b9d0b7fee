import { useNavigate, useSearch } from "@tanstack/react-router";
import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { SearchResult } from "@/contract/files";
import type { FileSortField } from "@/contract/rules";
import type { EntryRef } from "@/web/features/files/state/name-order";
import type { FolderView } from "@/web/lib/query-keys/files";

/**
 * Moving between folders, orders and search results through the URL, with focus kept where the
 * person works: the grid remounts for another folder (or order), behind a skeleton while it
 * loads, so focus would fall to the page; someone moving with the keys, or whose focus was in the
 * grid, gets it back there once the folder shows.
 */
export function useFolderNavigation(
  view: FolderView,
  gridRef: RefObject<HTMLDivElement | null>,
  /** The folder's first page has settled (shown, or failed): the grid can take focus. */
  settled: boolean,
) {
  const navigate = useNavigate({ from: "/files" });
  const { select: selectParam } = useSearch({ from: "/_app/files" });
  /** The folder whose grid takes focus once its first page shows. */
  const focusWhenShown = useRef<string | null>(null);
  /** An entry to select and scroll to: a search result, a renamed entry, `?select=` in the URL. */
  const [reveal, setReveal] = useState<EntryRef | null>(null);
  const urlReveal = useMemo<EntryRef | null>(
    () => (selectParam ? { path: selectParam, type: "file" } : null),
    [selectParam],
  );

  const focusGrid = useCallback(() => gridRef.current?.focus(), [gridRef]);
  const openFolder = useCallback(
    (path: string, fromKeyboard = false) => {
      focusWhenShown.current =
        fromKeyboard || gridRef.current?.contains(document.activeElement) ? path : null;
      void navigate({ search: (s) => ({ ...s, path: path || undefined, select: undefined }) });
    },
    [navigate, gridRef],
  );
  useEffect(() => {
    if (focusWhenShown.current !== view.path || !settled) return;
    focusWhenShown.current = null;
    // Unless the person has put focus somewhere since (an empty or failed folder has no grid).
    if (document.activeElement === document.body) gridRef.current?.focus();
  }, [view.path, settled, gridRef]);

  return {
    openFolder,
    focusGrid,
    /**
     * After a menu or dialog closes: lazily mounted Radix layers have no trigger to hand focus
     * back to, so it would fall to the body; the grid takes it unless an action put it elsewhere.
     */
    refocusGrid: () =>
      setTimeout(() => {
        if (document.activeElement === document.body) focusGrid();
      }),
    sortBy: (sort: FileSortField) => {
      if (gridRef.current?.contains(document.activeElement)) focusWhenShown.current = view.path;
      void navigate({
        search: (s) => ({
          ...s,
          sort: sort === "name" ? undefined : sort,
          order: view.sort === sort && view.order === "asc" ? "desc" : undefined,
        }),
      });
    },
    openResult: (result: SearchResult) => {
      if (result.type === "folder") {
        focusWhenShown.current = result.path;
        void navigate({ search: { path: result.path } });
      } else if (result.folder === view.path) setReveal({ path: result.path, type: "file" });
      else void navigate({ search: { path: result.folder || undefined, select: result.path } });
    },
    reveal: reveal ?? urlReveal,
    setReveal,
    /** The entry to reveal is shown: neither the state nor the URL asks for it again. */
    revealed: () => {
      setReveal(null);
      if (selectParam)
        void navigate({ search: (s) => ({ ...s, select: undefined }), replace: true });
      focusGrid();
    },
  };
}
