/** What a key does in the review queue. */
export type QueueCommand =
  | "next"
  | "previous"
  | "first"
  | "last"
  | "approve"
  | "reject"
  | "pending"
  | "openFolder"
  | "showShortcuts";

export interface QueueBinding {
  /** Alternatives: a letter is pressed without modifiers; `?` is whatever Shift made of it. */
  keys: readonly string[];
  command: QueueCommand;
  description: string;
  /** Only while the queue has focus: elsewhere these keys scroll the page or work a control. */
  inListOnly?: readonly string[];
}

/**
 * Every key of the review queue, in the order the `?` dialog lists them: the handler matches
 * against this table and the dialog renders it, so the two cannot disagree.
 */
export const queueKeymap: readonly QueueBinding[] = [
  {
    keys: ["j", "ArrowDown"],
    inListOnly: ["ArrowDown"],
    command: "next",
    description: "Next upload",
  },
  {
    keys: ["k", "ArrowUp"],
    inListOnly: ["ArrowUp"],
    command: "previous",
    description: "Previous upload",
  },
  {
    keys: ["Home", "End"],
    inListOnly: ["Home", "End"],
    command: "first",
    description: "First or last upload",
  },
  { keys: ["a"], command: "approve", description: "Approve" },
  {
    keys: ["r"],
    command: "reject",
    description: "Reject: type a note, Enter sends it, Esc cancels",
  },
  { keys: ["p"], command: "pending", description: "Set to pending (decide later)" },
  { keys: ["o"], command: "openFolder", description: "Open the upload’s folder in Files" },
  { keys: ["?"], command: "showShortcuts", description: "Show these shortcuts" },
];

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/**
 * The command a key press stands for, or null. `inList`: the queue holds focus. Caps Lock
 * leaves `a` an `A` without Shift, so letters compare without case but refuse Shift itself.
 */
export function matchQueueKey(press: KeyPress, inList: boolean): QueueCommand | null {
  if (press.altKey || press.ctrlKey || press.metaKey) return null;
  const letter = /^[a-z]$/i.test(press.key);
  if (letter && press.shiftKey) return null;
  const key = letter ? press.key.toLowerCase() : press.key;
  for (const b of queueKeymap) {
    if (!b.keys.includes(key)) continue;
    if (!inList && b.inListOnly?.includes(key)) return null;
    if (b.command === "first" && key === "End") return "last";
    return b.command;
  }
  return null;
}

/** Where shortcuts belong to what has focus (typing, a dialog, a menu), not to the queue. */
export const OWN_KEYS =
  "input, textarea, select, [contenteditable=true], [role=dialog], [role=alertdialog], [role=menu], [role=listbox]";

const shown: Record<string, string> = {
  ArrowUp: "↑",
  ArrowDown: "↓",
};

/** A key as the `?` dialog shows it. */
export const keyLabel = (key: string) => shown[key] ?? key;
