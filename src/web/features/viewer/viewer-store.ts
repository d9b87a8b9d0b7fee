import { create } from "zustand";

/** A note shown on the viewer's scrub bar (or beside a PDF page); a click jumps there. */
export interface ViewerMarker {
  id: string;
  timeMs: number | null;
  page: number | null;
  label: string;
}

/** What the viewer shows: a live file, or a kept version of one. */
export interface ViewerTarget {
  workspaceId: string;
  path: string;
  /** A kept version's id; absent for the live file. */
  version?: string;
  /** A friendlier title than the path (a version's date, an upload's file). */
  title?: string;
  /** The file's type, so the viewer knows its kind and plays a browser-playable original at once. */
  mimeType?: string | null;
  /** The file's size, for the link that plays the original. */
  sizeBytes?: number | null;
}

export interface ViewerRequest {
  target: ViewerTarget;
  /** A second version shown beside the first (compare). */
  compareWith?: ViewerTarget;
  /** Where to start: a time, or a PDF page. */
  at?: { timeMs?: number; page?: number };
  markers?: ViewerMarker[];
}

/**
 * Where the viewer is in the file it shows (or was, when it closed): what a note form offers to
 * attach ("at 00:01:02:05"). The viewer keeps it up to date while it plays, seeks or turns pages.
 */
export interface ViewerPosition {
  workspaceId: string;
  path: string;
  timeMs: number | null;
  page: number | null;
  /** The file's frame rate when known, for the timecode. */
  fps: number | null;
}

interface ViewerState {
  open: ViewerRequest | null;
  show(request: ViewerRequest): void;
  close(): void;
  position: ViewerPosition | null;
  setPosition(position: ViewerPosition | null): void;
}

/**
 * Which file the viewer shows, so any page (Files, versions, the review queue, a share) opens it
 * with one call and the viewer's heavy code loads only when something is shown.
 */
export const useViewerStore = create<ViewerState>((set) => ({
  open: null,
  show: (request) => set({ open: request }),
  close: () => set({ open: null }),
  position: null,
  setPosition: (position) => set({ position }),
}));
