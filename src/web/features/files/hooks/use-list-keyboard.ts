import type { KeyboardEvent } from "react";
import type { FileEntry } from "@/contract/files";
import { type KeyCommand, matchFilesKey } from "@/web/features/files/keymap";
import {
  isSelected,
  type Selection,
  selectAll,
  selectedCount,
  selectOnly,
  selectPaths,
  toggle,
} from "@/web/features/files/state/selection";
import type { FilesLayout } from "@/web/features/files/state/view-store";

/** What the list's keys do beyond moving and selecting. */
export interface ListKeyActions {
  onOpen(entry: FileEntry): void;
  onParent(): void;
  onRename(entry: FileEntry): void;
  onTrash(): void;
  onDeletePermanently(): void;
  /** Opens the actions menu at the entry `index`'s row. */
  onMenuAt(index: number): void;
}

/** A command's work; `false` when it does not apply now, so the key goes on to the page. */
type Run = (key: string) => unknown;

/**
 * The grid's keydown handler, dispatched from the keymap. Keys the list has no command for
 * (`/`, `?`) pass on to the page's handler.
 */
export function useListKeyboard(o: {
  /** A rename is under way: the keys are its field's (which may be still loading). */
  renaming: boolean;
  layout: FilesLayout;
  active: number;
  total: number;
  perRow: number;
  canWrite: boolean;
  visibleRows(): number;
  entryAt(index: number): FileEntry | undefined;
  /** Makes `index` (clamped) the active entry and scrolls to it; returns the clamped index. */
  moveTo(index: number): number;
  selection: Selection;
  select(next: Selection, anchor?: number): void;
  anchor(): number;
  selectRange(from: number, to: number, additive: boolean): Promise<void>;
  selectOnlyAt(index: number): Promise<void>;
  actions: ListKeyActions;
}) {
  return (e: KeyboardEvent<HTMLDivElement>) => {
    // The rename field is inside the grid: its keys are its own.
    if (o.renaming || (e.target as HTMLElement).tagName === "INPUT") return;
    const match = matchFilesKey(e, o.layout);
    if (!match) return;
    const { active, perRow, actions } = o;
    const entry = o.entryAt(active);
    const target = (key: string) =>
      ({
        ArrowDown: active + perRow,
        ArrowUp: active - perRow,
        ArrowRight: active + 1,
        ArrowLeft: active - 1,
        PageDown: active + o.visibleRows() * perRow,
        PageUp: active - o.visibleRows() * perRow,
        Home: 0,
        End: o.total - 1,
      })[key] ?? active;
    const when = (ok: unknown, run: () => void) => (ok ? run() : false);
    const commands: Partial<Record<KeyCommand, Run>> = {
      move: (key) => void o.selectOnlyAt(o.moveTo(target(key))),
      extend: (key) => {
        const from = o.anchor();
        void o.selectRange(from, o.moveTo(target(key)), false);
      },
      moveOnly: (key) => void o.moveTo(target(key)),
      toggle: () => when(entry, () => o.select(toggle(o.selection, entry!.path), active)),
      selectAll: () => o.select(selectAll()),
      clearSelection: () =>
        when(selectedCount(o.selection, o.total) > 0, () => o.select(selectPaths([]))),
      open: () => when(entry, () => actions.onOpen(entry!)),
      parent: () => actions.onParent(),
      rename: () => when(entry && o.canWrite, () => actions.onRename(entry!)),
      trash: () => when(o.canWrite, actions.onTrash),
      deletePermanently: () => when(o.canWrite, actions.onDeletePermanently),
      contextMenu: () =>
        when(entry, () => {
          if (!isSelected(o.selection, entry!.path)) o.select(selectOnly(entry!.path), active);
          actions.onMenuAt(active);
        }),
    };
    const run = commands[match.command];
    if (run && run(match.key) !== false) e.preventDefault();
  };
}
