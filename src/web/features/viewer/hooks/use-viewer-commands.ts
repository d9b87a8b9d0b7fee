import { createContext, type KeyboardEvent, useContext, useEffect, useRef } from "react";
import { matchKey } from "@/web/lib/keymap/keymap";
import { type ViewerCommand, viewerKeymap } from "../viewer-keymap";

export type ViewerCommandHandler = (command: ViewerCommand) => boolean;
type Handler = ViewerCommandHandler;

/** The view on screen takes the viewer's keys: the dialog hands each press to it. */
export const ViewerCommandsContext = createContext<{ current: Handler | null }>({ current: null });

/** Registers what the view does with each command; it returns false for one it ignores. */
export function useViewerCommands(handler: Handler) {
  const slot = useContext(ViewerCommandsContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const own: Handler = (c) => latest.current(c);
    slot.current = own;
    return () => {
      if (slot.current === own) slot.current = null;
    };
  }, [slot]);
}

/** Controls that take these keys themselves (a button's Space, a list's arrows) keep them. */
function ownsKey(target: EventTarget, key: string) {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest("input, select, textarea")) return key.startsWith("Arrow") || key === " ";
  return (key === " " || key === "Enter") && !!target.closest("button, a, [role='button']");
}

/** The dialog's key handler: matches the keymap and runs the view's command. */
export function handleViewerKey(e: KeyboardEvent, slot: { current: Handler | null }) {
  if (ownsKey(e.target, e.key)) return;
  const binding = matchKey(viewerKeymap, e);
  if (binding && slot.current?.(binding.command)) e.preventDefault();
}
