import { type MouseEvent, useMemo, useRef } from "react";
import type { FileEntry } from "@/contract/files";
import type { RowHandlers } from "@/web/features/files/components/row-parts";
import type { EntryRef } from "@/web/features/files/state/name-order";
import {
  isSelected,
  type Selection,
  selectOnly,
  toggle,
} from "@/web/features/files/state/selection";

/** A tap opens, as on a phone; a mouse click selects, and a double-click opens. */
const isTap = (e: MouseEvent) => (e.nativeEvent as PointerEvent).pointerType === "touch";

/**
 * What clicks on rows and tiles do, as one object that is stable for the list's lifetime and
 * calls the latest render's handlers: memoized rows then re-render only when what they show does.
 */
export function useRowHandlers(o: {
  selection: Selection;
  select(next: Selection, anchor?: number): void;
  anchor(): number;
  selectRange(from: number, to: number, additive: boolean): Promise<void>;
  setActive(index: number): void;
  renaming: string | null;
  actions: {
    onOpen(entry: FileEntry): void;
    onContextMenu(point: { x: number; y: number }): void;
    onRenameDone(renamed: EntryRef | null): void;
  };
}): RowHandlers {
  const { selection, select, setActive, renaming, actions } = o;
  const latest = useRef<RowHandlers>(null!);
  latest.current = {
    click: (e, index, entry) => {
      if (!entry) return;
      setActive(index);
      if (e.shiftKey) void o.selectRange(o.anchor(), index, e.ctrlKey || e.metaKey);
      else if (e.ctrlKey || e.metaKey) select(toggle(selection, entry.path), index);
      else select(selectOnly(entry.path), index);
      if (isTap(e) && renaming !== entry.path) actions.onOpen(entry);
    },
    contextMenu: (e, index, entry) => {
      e.preventDefault();
      if (!entry) return;
      setActive(index);
      if (!isSelected(selection, entry.path)) select(selectOnly(entry.path), index);
      actions.onContextMenu({ x: e.clientX, y: e.clientY });
    },
    open: (entry) => renaming !== entry.path && actions.onOpen(entry),
    checkbox: (e, index, entry) => {
      e.stopPropagation();
      setActive(index);
      if (e.shiftKey) void o.selectRange(o.anchor(), index, true);
      else select(toggle(selection, entry.path), index);
    },
    renameDone: actions.onRenameDone,
  };
  return useMemo<RowHandlers>(
    () => ({
      click: (...a) => latest.current.click(...a),
      contextMenu: (...a) => latest.current.contextMenu(...a),
      open: (entry) => latest.current.open(entry),
      checkbox: (...a) => latest.current.checkbox(...a),
      renameDone: (renamed) => latest.current.renameDone(renamed),
    }),
    [],
  );
}
