import type { ContactSheetLayout } from "@/contract/media";

/**
 * Where the contact sheet's tile for `timeMs` sits, as the CSS `background-position` that shows
 * it in a box of the tile's size: tile `i` is the frame at `i * intervalMs`, laid out left to
 * right, `columns` to a row.
 */
export function tileAt(layout: ContactSheetLayout, timeMs: number) {
  const last = Math.max(0, layout.tileCount - 1);
  const index = Math.min(last, Math.max(0, Math.floor(timeMs / Math.max(1, layout.intervalMs))));
  const column = index % layout.columns;
  const row = Math.floor(index / layout.columns);
  return { index, x: -column * layout.tileWidth, y: -row * layout.tileHeight };
}
