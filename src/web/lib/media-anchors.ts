import type { MediaAnchor } from "@/contract/media";
import { timecode } from "@/contract/media-rules";

/*
 * Time-coded notes in the console (share comments, review notes): how an anchor reads, the
 * markers of one file's notes, and the anchor a note form attaches from the viewer's position.
 * Plain data, so the shares and portals features build the viewer's request the same way.
 */

export interface AnchoredNote {
  id: string;
  body: string;
  anchor: MediaAnchor | null;
}

const two = (n: number) => String(n).padStart(2, "0");

/**
 * "page 3" (pages count from 1 for people), or the time as a timecode at the file's frame rate,
 * or `HH:MM:SS.t` when the rate is not known (a list of notes does not read each file's rate).
 */
export function anchorLabel(a: Pick<MediaAnchor, "timeMs" | "page">, fps?: number | null) {
  if (a.page !== null) return `page ${a.page + 1}`;
  const ms = Math.max(0, a.timeMs ?? 0);
  if (fps) return timecode(ms, fps);
  const s = Math.floor(ms / 1000);
  return `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}.${Math.floor((ms % 1000) / 100)}`;
}

/** The markers of a file's anchored notes, for the viewer's scrub bar (or its pages). */
export function markersOf(notes: readonly AnchoredNote[], path: string) {
  return notes.flatMap((n) =>
    n.anchor?.path === path
      ? [
          {
            id: n.id,
            timeMs: n.anchor.timeMs,
            page: n.anchor.page,
            label: n.body.length > 80 ? `${n.body.slice(0, 79)}…` : n.body,
          },
        ]
      : [],
  );
}

/**
 * What opens the viewer at a note: its file, where it points, and that file's notes as markers.
 * The file's size, when the page knows it, lets the viewer play a browser-playable original
 * while the proxy renders.
 */
export function viewerRequestAt(
  workspaceId: string,
  anchor: MediaAnchor,
  notes: readonly AnchoredNote[],
  sizeBytes?: number,
) {
  return {
    target: { workspaceId, path: anchor.path, ...(sizeBytes === undefined ? {} : { sizeBytes }) },
    at: anchor.page !== null ? { page: anchor.page } : { timeMs: anchor.timeMs ?? 0 },
    markers: markersOf(notes, anchor.path),
  };
}

export interface PositionLike {
  workspaceId: string;
  path: string;
  timeMs: number | null;
  page: number | null;
}

/**
 * The anchor a note form may attach: where the viewer is (or was) in a file the note may point
 * into. A page wins over a time (a PDF has no time); null when the viewer showed none of them.
 */
export function anchorFromPosition(
  position: PositionLike | null,
  workspaceId: string,
  mayPoint: (path: string) => boolean,
): MediaAnchor | null {
  if (!position || position.workspaceId !== workspaceId || !mayPoint(position.path)) return null;
  if (position.page !== null) return { path: position.path, timeMs: null, page: position.page };
  if (position.timeMs === null) return null;
  return { path: position.path, timeMs: Math.round(position.timeMs), page: null };
}
