import { create } from "zustand";
import { emptySelection, type Selection } from "./selection";

interface SelectionState {
  /** The folder view the selection belongs to: another folder or order starts empty. */
  scope: string;
  selection: Selection;
  /** Where Shift+click and Shift+arrow ranges start. */
  anchor: number;
  set(scope: string, selection: Selection, anchor?: number): void;
}

export const useSelectionStore = create<SelectionState>()((set) => ({
  scope: "",
  selection: emptySelection,
  anchor: 0,
  set: (scope, selection, anchor) =>
    set((s) => ({ scope, selection, anchor: anchor ?? (s.scope === scope ? s.anchor : 0) })),
}));

export function useSelection(scope: string): Selection {
  return useSelectionStore((s) => (s.scope === scope ? s.selection : emptySelection));
}

export const selectionScope = (view: { path: string; sort: string; order: string }) =>
  `${view.path}\u0000${view.sort}\u0000${view.order}`;
