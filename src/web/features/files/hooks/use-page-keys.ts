import { useEffect, useRef } from "react";
import { type KeyCommand, matchKey } from "@/web/features/files/keymap";
import type { FilesLayout } from "@/web/features/files/state/view-store";

/** Where keys belong to what has focus, not to the page. */
const OWN_KEYS =
  "input, textarea, select, [contenteditable=true], [role=dialog], [role=alertdialog], [role=menu]";

/**
 * The page's keys, dispatched from the keymap: the ones no focused list took (`/`, `?`), and
 * the way up from a folder with no list to take keys (empty, or failed to load).
 */
export function usePageKeys(
  layout: FilesLayout,
  /** A command returns `false` when it does not apply now, leaving the key to the browser. */
  commands: Partial<Record<KeyCommand, () => unknown>>,
) {
  const latest = useRef(commands);
  latest.current = commands;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || (e.target as HTMLElement).closest(OWN_KEYS)) return;
      const match = matchKey(e, layout);
      const run = match && latest.current[match.binding.command];
      if (run && run() !== false) e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [layout]);
}
