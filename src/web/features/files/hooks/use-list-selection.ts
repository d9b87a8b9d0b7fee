import { useRef } from "react";
import type { FileEntry } from "@/contract/files";
import { FILES_PAGE_SIZE } from "@/web/features/files/api/list-files";
import {
  planRange,
  rangeBetween,
  rangeSelection,
  type Selection,
  selectOnly,
  union,
} from "@/web/features/files/state/selection";
import { useSelection, useSelectionStore } from "@/web/features/files/state/selection-store";

/**
 * The list's selection, in the store keyed by path ("all except" for select-all and long
 * ranges), so it survives scrolling and never enumerates the folder.
 */
export function useListSelection({
  scope,
  total,
  entryAt,
  loadRange,
}: {
  scope: string;
  total: number;
  entryAt(index: number): FileEntry | undefined;
  loadRange(from: number, to: number): Promise<FileEntry[]>;
}) {
  const selection = useSelection(scope);
  const setSelection = useSelectionStore((s) => s.set);
  /**
   * Counts selections: one that waited for pages applies only if nothing was selected since
   * (a slow range must not overwrite a later click, nor an earlier Shift+arrow a later one).
   */
  const turn = useRef(0);

  const select = (next: Selection, anchor?: number) => {
    turn.current++;
    setSelection(scope, next, anchor);
  };

  /** Where Shift+click and Shift+arrow ranges start. */
  const anchor = () => {
    const s = useSelectionStore.getState();
    return s.scope === scope ? Math.min(s.anchor, total - 1) : 0;
  };

  const selectRange = async (from: number, to: number, additive: boolean) => {
    const mine = ++turn.current;
    const [lo, hi] = rangeBetween(from, to);
    const plan = planRange(lo, hi, total, FILES_PAGE_SIZE);
    const paths: string[] = [];
    for (const [a, b] of plan.spans) for (const e of await loadRange(a, b)) paths.push(e.path);
    if (mine !== turn.current) return;
    const range = rangeSelection(plan, paths);
    const current = useSelectionStore.getState();
    const base = current.scope === scope ? current.selection : selection;
    select(additive ? union(base, range) : range);
  };

  const selectOnlyAt = async (index: number) => {
    const mine = ++turn.current;
    const entry = entryAt(index) ?? (await loadRange(index, index))[0];
    if (entry && mine === turn.current) select(selectOnly(entry.path), index);
  };

  return { selection, select, anchor, selectRange, selectOnlyAt };
}
