/**
 * The queue's selection for a bulk decision: ids, and the row a Shift-click extends from. A
 * click toggles one row; a Shift-click sets every row between the anchor and it to the state
 * the clicked row takes (as a file manager's checkboxes do). Pure, so it is tested alone.
 */
export interface UploadSelection {
  ids: ReadonlySet<string>;
  anchor: number | null;
}

export const noSelection: UploadSelection = { ids: new Set(), anchor: null };

export function toggleSelection(
  s: UploadSelection,
  order: readonly string[],
  index: number,
  range: boolean,
  max: number,
): UploadSelection {
  const id = order[index];
  if (id === undefined) return s;
  const on = !s.ids.has(id);
  const ids = new Set(s.ids);
  const from = range && s.anchor !== null ? Math.min(s.anchor, index) : index;
  const to = range && s.anchor !== null ? Math.max(s.anchor, index) : index;
  for (let i = from; i <= to; i++) {
    const each = order[i];
    if (each === undefined) continue;
    if (!on) ids.delete(each);
    else if (ids.size < max) ids.add(each);
  }
  return { ids, anchor: index };
}

/** The selected ids still listed (a decided row may have left), in the list's order. */
export const selectedInOrder = (s: UploadSelection, order: readonly string[]) =>
  order.filter((id) => s.ids.has(id));
