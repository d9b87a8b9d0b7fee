import type { LucideIcon } from "lucide-react";

/** One thing to do with the selection, offered the same way by the context menu and the bar. */
export interface FileAction {
  id: string;
  label: string;
  icon: LucideIcon;
  shortcut?: string;
  destructive?: boolean;
  /** Starts a group (a separator before it in the menu). */
  group?: boolean;
  run(): void;
}
