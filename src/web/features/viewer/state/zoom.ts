/** How far an image zooms: from fitting the screen to eight times that. */
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 8;

export interface View {
  zoom: number;
  /** The image's offset from centre, in screen pixels. */
  x: number;
  y: number;
}

export const fitView: View = { zoom: 1, x: 0, y: 0 };

/**
 * Zooms by `factor` keeping the point at (`px`, `py`) (relative to the box's centre) under the
 * pointer; back at fit the image is centred again.
 */
export function zoomAt(view: View, factor: number, px = 0, py = 0): View {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.zoom * factor));
  if (zoom === MIN_ZOOM) return fitView;
  const k = zoom / view.zoom;
  return { zoom, x: px - (px - view.x) * k, y: py - (py - view.y) * k };
}

/** Pans by a distance; at fit there is nothing to pan. */
export const panBy = (view: View, dx: number, dy: number): View =>
  view.zoom === MIN_ZOOM ? view : { ...view, x: view.x + dx, y: view.y + dy };
