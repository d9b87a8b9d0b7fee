import { Fragment, useLayoutEffect, useRef } from "react";
import {
  ContextMenu,
  ContextMenuContent,
  ContextMenuItem,
  ContextMenuSeparator,
  ContextMenuShortcut,
  ContextMenuTrigger,
} from "@/web/components/ui/context-menu";
import { filesShortcutLabel } from "@/web/features/files/keymap";
import { cn } from "@/web/lib/cn";
import type { FileAction } from "./file-actions";

/**
 * Loaded with the first right-click. Radix opens a context menu from its trigger's own
 * `contextmenu` event, which fired before this module arrived, so a point-sized trigger at the
 * pointer replays it (and the Menu key / Shift+F10 use the same path).
 */
export default function FileContextMenu({
  x,
  y,
  title,
  actions,
  onClose,
}: {
  x: number;
  y: number;
  title: string;
  actions: FileAction[];
  onClose(): void;
}) {
  const triggerRef = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    triggerRef.current?.dispatchEvent(
      new MouseEvent("contextmenu", { bubbles: true, cancelable: true, clientX: x, clientY: y }),
    );
  }, [x, y]);

  return (
    <ContextMenu onOpenChange={(open) => !open && onClose()}>
      <ContextMenuTrigger asChild>
        <span
          ref={triggerRef}
          aria-hidden="true"
          className="fixed size-0"
          style={{ left: x, top: y }}
        />
      </ContextMenuTrigger>
      <ContextMenuContent
        aria-label={title}
        // The page decides where focus goes next (the grid, a rename field, a dialog).
        onCloseAutoFocus={(e) => e.preventDefault()}
        // Radix dismisses on Escape only when the menu is its topmost layer, and an open toast
        // can claim that; the menu is always what Escape means here.
        onKeyDown={(e) => {
          if (e.key === "Escape") onClose();
        }}
      >
        {actions.map((action) => (
          <Fragment key={action.id}>
            {action.group && <ContextMenuSeparator />}
            <ContextMenuItem
              onSelect={action.run}
              className={cn(action.destructive && "text-destructive-text")}
            >
              <action.icon aria-hidden="true" />
              {action.label}
              {action.keys && (
                <ContextMenuShortcut>{filesShortcutLabel(action.keys)}</ContextMenuShortcut>
              )}
            </ContextMenuItem>
          </Fragment>
        ))}
      </ContextMenuContent>
    </ContextMenu>
  );
}
