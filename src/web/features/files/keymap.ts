import type { FilesLayout } from "@/web/features/files/state/view-store";

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

export interface KeyBinding {
  /**
   * Alternatives, each a key with the modifiers held for it: "Shift+Delete", "Alt+ArrowUp".
   * `Mod` is Ctrl or ⌘, `Meta` is ⌘ only; `Move` stands for any key a `move` binding takes.
   */
  keys: readonly string[];
  description: string;
  command: KeyCommand;
  /** The binding applies in this layout only. */
  layout?: FilesLayout;
}

/**
 * Every key of the Files page, in the order the `?` dialog lists them: the key handlers dispatch
 * from this table and the dialog renders it, so the two cannot disagree.
 */
export const filesKeymap: readonly KeyBinding[] = [
  { keys: ["ArrowUp", "ArrowDown"], command: "move", description: "Move up or down and select" },
  {
    keys: ["ArrowLeft", "ArrowRight"],
    command: "move",
    layout: "grid",
    description: "Move left or right and select (grid view)",
  },
  { keys: ["PageUp", "PageDown"], command: "move", description: "Move a screenful and select" },
  { keys: ["Home", "End"], command: "move", description: "Go to the first or last item" },
  { keys: ["Shift+Move"], command: "extend", description: "Extend the selection" },
  { keys: ["Mod+Move"], command: "moveOnly", description: "Move without changing the selection" },
  { keys: ["Space"], command: "toggle", description: "Select or deselect the focused item" },
  { keys: ["Mod+A"], command: "selectAll", description: "Select all" },
  { keys: ["Escape"], command: "clearSelection", description: "Clear the selection" },
  { keys: ["Enter"], command: "open", description: "Open a folder, or a file’s details" },
  { keys: ["Backspace", "Alt+ArrowUp"], command: "parent", description: "Go to the parent folder" },
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
];

interface Chord {
  key: string;
  shift: boolean;
  alt: boolean;
  /** Ctrl or ⌘ ("Mod"), ⌘ alone ("Meta"), or neither. */
  mod: "mod" | "meta" | null;
}

function parseChord(text: string): Chord {
  const parts = text.split("+");
  const key = parts.pop() ?? "";
  return {
    key,
    shift: parts.includes("Shift"),
    alt: parts.includes("Alt"),
    mod: parts.includes("Mod") ? "mod" : parts.includes("Meta") ? "meta" : null,
  };
}

/** The parts of a KeyboardEvent a binding is matched on. */
export interface KeyPress {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/** A key's name as the table writes it: " " is Space, letters are upper case. */
function keyName(key: string): string {
  if (key === " ") return "Space";
  return key.length === 1 ? key.toUpperCase() : key;
}

/** "/" and "?" are what Shift made of the key already: Shift is not asked of them again. */
const shiftIsInTheKey = (key: string) =>
  key.length === 1 && key.toLowerCase() === key.toUpperCase();

function modifiersMatch(chord: Chord, press: KeyPress): boolean {
  if (chord.alt !== press.altKey) return false;
  if (!shiftIsInTheKey(chord.key) && chord.shift !== press.shiftKey) return false;
  if (chord.mod === "mod") return press.ctrlKey || press.metaKey;
  if (chord.mod === "meta") return press.metaKey && !press.ctrlKey;
  return !press.ctrlKey && !press.metaKey;
}

const applies = (binding: KeyBinding, layout: FilesLayout) =>
  !binding.layout || binding.layout === layout;

/** The keys `Move` stands for in this layout. */
function moveKeys(layout: FilesLayout): Set<string> {
  return new Set(
    filesKeymap
      .filter((b) => b.command === "move" && applies(b, layout))
      .flatMap((b) => b.keys.map((k) => parseChord(k).key)),
  );
}

export interface KeyMatch {
  binding: KeyBinding;
  /** The key pressed, without its modifiers ("End" for Shift+End): moves read where to. */
  key: string;
}

/** The binding a key press stands for in this layout, if any. */
export function matchKey(press: KeyPress, layout: FilesLayout): KeyMatch | null {
  const key = keyName(press.key);
  for (const binding of filesKeymap) {
    if (!applies(binding, layout)) continue;
    for (const text of binding.keys) {
      const chord = parseChord(text);
      const keyMatches = chord.key === "Move" ? moveKeys(layout).has(key) : chord.key === key;
      if (keyMatches && modifiersMatch(chord, press)) return { binding, key };
    }
  }
  return null;
}

const shownNames: Record<string, string> = {
  ArrowUp: "↑",
  ArrowDown: "↓",
  ArrowLeft: "←",
  ArrowRight: "→",
  PageUp: "Page Up",
  PageDown: "Page Down",
  Escape: "Esc",
  ContextMenu: "Menu",
  Mod: "Ctrl/⌘",
  Meta: "⌘",
};

/** A chord's keys as a person reads them, e.g. ["Shift", "Delete"]; `Move` is not a key. */
export function chordParts(text: string): { label: string; isKey: boolean }[] {
  return text
    .split("+")
    .map((part) =>
      part === "Move"
        ? { label: "a move key", isKey: false }
        : { label: shownNames[part] ?? part, isKey: true },
    );
}

/** "Shift + Delete or Shift + ⌘ + Backspace": alternatives read as alternatives. */
export function describeKeys(binding: KeyBinding): string {
  return binding.keys
    .map((k) =>
      chordParts(k)
        .map((p) => p.label)
        .join(" + "),
    )
    .join(" or ");
}

const bindingFor = (command: KeyCommand) => filesKeymap.find((b) => b.command === command);

/** The first key of a command, as menus show it next to the action ("Shift + Delete"). */
export function shortcutLabel(command: KeyCommand): string | undefined {
  const first = bindingFor(command)?.keys[0];
  return first
    ? chordParts(first)
        .map((p) => p.label)
        .join(" + ")
    : undefined;
}

/** The command's keys in `aria-keyshortcuts` form ("Delete Meta+Backspace"). */
export function ariaKeyShortcuts(command: KeyCommand): string | undefined {
  return bindingFor(command)
    ?.keys.map((k) => k.replace("Mod+", "Control+"))
    .join(" ");
}
