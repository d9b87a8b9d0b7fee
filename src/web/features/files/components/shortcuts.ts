/** Every keyboard shortcut of the Files page, as the `?` dialog lists them. */
export const fileShortcuts: { keys: string[]; action: string }[] = [
  { keys: ["↑", "↓"], action: "Move and select (← → too in the grid view)" },
  { keys: ["Shift", "↑ ↓"], action: "Extend the selection" },
  { keys: ["Ctrl/⌘", "↑ ↓"], action: "Move without selecting" },
  { keys: ["Space"], action: "Select or deselect the focused item" },
  { keys: ["Ctrl/⌘", "A"], action: "Select all" },
  { keys: ["Esc"], action: "Clear the selection" },
  { keys: ["Enter"], action: "Open" },
  { keys: ["Backspace"], action: "Go to the parent folder (Alt+↑ too)" },
  { keys: ["F2"], action: "Rename in place" },
  { keys: ["Delete"], action: "Move to the trash (⌘+Backspace on a Mac)" },
  { keys: ["Shift", "Delete"], action: "Delete permanently" },
  { keys: ["Shift", "F10"], action: "Open the context menu (the Menu key too)" },
  { keys: ["Home", "End"], action: "First or last item" },
  { keys: ["/"], action: "Search this folder and below" },
  { keys: ["?"], action: "Show these shortcuts" },
];
