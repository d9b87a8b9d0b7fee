import type { LucideIcon } from "lucide-react";
import type { KeyCommand } from "@/web/features/files/keymap";

/** One thing to do with the selection, offered the same way by the context menu and the bar. */
export interface FileAction {
  id: string;
  label: string;
  icon: LucideIcon;
  /** The keymap's command that does the same: its keys are shown beside the action. */
  keys?: KeyCommand;
  destructive?: boolean;
  /** Starts a group (a separator before it in the menu). */
  group?: boolean;
  run(): void;
}
