import { type Keymap, type KeyPress, matchKey } from "@/web/lib/keymap/keymap";

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

/**
 * Every key of the review queue, in the order the `?` dialog lists them: the handler matches
 * against this table and the dialog renders it, so the two cannot disagree. Arrows, Home and
 * End work only while the queue has focus: elsewhere they scroll the page or work a control.
 */
export const queueKeymap: Keymap<QueueCommand, "inList"> = {
  // A letter is pressed without modifiers; Shift with an arrow is still the arrow.
  shiftOnLettersOnly: true,
  bindings: [
    {
      keys: ["j", "ArrowDown"],
      only: { scope: "inList", keys: ["ArrowDown"] },
      command: "next",
      description: "Next upload",
    },
    {
      keys: ["k", "ArrowUp"],
      only: { scope: "inList", keys: ["ArrowUp"] },
      command: "previous",
      description: "Previous upload",
    },
    {
      keys: ["Home", "End"],
      only: { scope: "inList" },
      command: "first",
      keyCommands: { End: "last" },
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
  ],
};

/** The command a key press stands for, or null. `inList`: the queue holds focus. */
export const matchQueueKey = (press: KeyPress, inList: boolean): QueueCommand | null =>
  matchKey(queueKeymap, press, () => inList)?.command ?? null;
