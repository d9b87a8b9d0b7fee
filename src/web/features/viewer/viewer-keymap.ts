import type { Keymap } from "@/web/lib/keymap/keymap";

/** What a key does in the viewer; each view does what the command means for its kind. */
export type ViewerCommand =
  | "togglePlay"
  | "back"
  | "forward"
  | "up"
  | "down"
  | "previousFrame"
  | "nextFrame"
  | "previousPage"
  | "nextPage"
  | "zoomIn"
  | "zoomOut"
  | "fit"
  | "fullScreen";

/** Every key of the viewer (Esc closes it: the dialog's own). */
export const viewerKeymap: Keymap<ViewerCommand> = {
  shiftOnLettersOnly: true,
  bindings: [
    { keys: ["Space", "k"], command: "togglePlay", description: "Play or pause" },
    { keys: ["j", "ArrowLeft"], command: "back", description: "Back 5 s, previous page, pan" },
    { keys: ["l", "ArrowRight"], command: "forward", description: "On 5 s, next page, pan" },
    { keys: ["ArrowUp"], command: "up", description: "Pan up" },
    { keys: ["ArrowDown"], command: "down", description: "Pan down" },
    { keys: [","], command: "previousFrame", description: "Previous frame" },
    { keys: ["."], command: "nextFrame", description: "Next frame" },
    { keys: ["PageUp"], command: "previousPage", description: "Previous page" },
    { keys: ["PageDown"], command: "nextPage", description: "Next page" },
    { keys: ["+", "="], command: "zoomIn", description: "Zoom in" },
    { keys: ["-"], command: "zoomOut", description: "Zoom out" },
    { keys: ["0"], command: "fit", description: "Fit to the screen" },
    { keys: ["f"], command: "fullScreen", description: "Full screen" },
  ],
};
