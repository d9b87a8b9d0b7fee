import { useEffect, useRef } from "react";
import { type Keymap, matchKey } from "./keymap";

/** Where keys belong to what has focus (typing, a dialog, a menu), not to the page. */
const OWN_KEYS =
  "input, textarea, select, [contenteditable=true], [role=dialog], [role=alertdialog], [role=menu]";

/** A command's work, given the key pressed; `false` when it does not apply now. */
export type KeyCommands<C extends string> = Partial<Record<C, (key: string) => unknown>>;

/**
 * A page's keys, dispatched from its keymap on the document: a command that returns `false`
 * leaves the key to the browser. Keys pressed where focus owns them (see `OWN_KEYS`, plus
 * `alsoIgnore`) are left alone.
 */
export function useKeymap<C extends string, S extends string>(
  keymap: Keymap<C, S>,
  commands: KeyCommands<C>,
  options: {
    /** More places whose keys are their own, as a selector: a listbox, a toast. */
    alsoIgnore?: string;
    /** Whether a binding's scope holds for a key pressed in `target`. */
    holds?(scope: S, target: HTMLElement): boolean;
  } = {},
) {
  const latest = useRef({ commands, options });
  latest.current = { commands, options };
  useEffect(() => {
    const ignore = [OWN_KEYS, options.alsoIgnore].filter(Boolean).join(", ");
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const target = e.target as HTMLElement;
      if (target.closest?.(ignore)) return;
      const { commands, options } = latest.current;
      const match = matchKey(keymap, e, (scope) => options.holds?.(scope, target) ?? false);
      const run = match && commands[match.command];
      if (run && run(match.key) !== false) e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [keymap, options.alsoIgnore]);
}
