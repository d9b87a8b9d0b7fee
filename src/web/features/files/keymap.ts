import type { FilesLayout } from "@/web/features/files/state/view-store";
import {
  ariaKeyShortcuts,
  type Keymap,
  type KeyPress,
  matchKey,
  shortcutLabel,
} from "@/web/lib/keymap/keymap";

/** What a key does. The list and the page each implement the commands that are theirs. */
export type KeyCommand =
  | "move"
  | "extend"
  | "moveOnly"
  | "toggle"
  | "selectAll"
  | "clearSelection"
  | "open"
  | "parent"
  | "rename"
  | "trash"
  | "deletePermanently"
  | "contextMenu"
  | "search"
  | "showShortcuts";

/**
 * Every key of the Files page, in the order the `?` dialog lists them: the key handlers dispatch
 * from this table and the dialog renders it, so the two cannot disagree.
 */
export const filesKeymap: Keymap<KeyCommand, FilesLayout> = {
  // `Move` in a chord is any key a `move` binding takes where it applies.
  groups: { Move: "move" },
  bindings: [
    { keys: ["ArrowUp", "ArrowDown"], command: "move", description: "Move up or down and select" },
    {
      keys: ["ArrowLeft", "ArrowRight"],
      command: "move",
      only: { scope: "grid" },
      description: "Move left or right and select (grid view)",
    },
    { keys: ["PageUp", "PageDown"], command: "move", description: "Move a screenful and select" },
    { keys: ["Home", "End"], command: "move", description: "Go to the first or last item" },
    { keys: ["Shift+Move"], command: "extend", description: "Extend the selection" },
    { keys: ["Mod+Move"], command: "moveOnly", description: "Move without changing the selection" },
    { keys: ["Space"], command: "toggle", description: "Select or deselect the focused item" },
    { keys: ["Mod+A"], command: "selectAll", description: "Select all" },
    { keys: ["Escape"], command: "clearSelection", description: "Clear the selection" },
    {
      keys: ["Enter"],
      command: "open",
      description: "Open a folder, view a media file, or a file’s details",
    },
    {
      keys: ["Backspace", "Alt+ArrowUp"],
      command: "parent",
      description: "Go to the parent folder",
    },
    { keys: ["F2"], command: "rename", description: "Rename in place" },
    { keys: ["Delete", "Meta+Backspace"], command: "trash", description: "Move to the trash" },
    {
      keys: ["Shift+Delete", "Shift+Meta+Backspace"],
      command: "deletePermanently",
      description: "Delete permanently",
    },
    {
      keys: ["Shift+F10", "ContextMenu"],
      command: "contextMenu",
      description: "Open the actions menu",
    },
    { keys: ["/"], command: "search", description: "Search this folder and below" },
    { keys: ["?"], command: "showShortcuts", description: "Show these shortcuts" },
  ],
};

/** The binding a key press stands for in this layout, if any. */
export const matchFilesKey = (press: KeyPress, layout: FilesLayout) =>
  matchKey(filesKeymap, press, (scope) => scope === layout);

/** The first key of a command, as menus show it next to the action ("Shift + Delete"). */
export const filesShortcutLabel = (command: KeyCommand) => shortcutLabel(filesKeymap, command);

/** The command's keys in `aria-keyshortcuts` form ("Delete Meta+Backspace"). */
export const filesAriaKeys = (command: KeyCommand) => ariaKeyShortcuts(filesKeymap, command);
