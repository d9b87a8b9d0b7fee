/**
 * A keymap is a table of bindings that a page's key handlers match key presses against and its
 * `?` dialog renders (`components/shortcuts-dialog.tsx`), so the two cannot disagree.
 */
export interface KeyBinding<C extends string = string, S extends string = string> {
  /**
   * Alternatives, each a key with the modifiers held for it: "Shift+Delete", "Alt+ArrowUp", "j".
   * `Mod` is Ctrl or ⌘, `Meta` is ⌘ only; a letter matches either case (Caps Lock).
   */
  keys: readonly string[];
  command: C;
  description: string;
  /** The binding (or only `keys` of it) applies while `scope` holds: the grid, a focused list. */
  only?: { scope: S; keys?: readonly string[] };
  /** Keys of this binding that run another command: one row reads "Home or End", two commands. */
  keyCommands?: Readonly<Partial<Record<string, C>>>;
}

export interface Keymap<C extends string = string, S extends string = string> {
  /** In the order the `?` dialog lists them; the first binding a press matches wins. */
  bindings: readonly KeyBinding<C, S>[];
  /** Chord keys standing for every key of a command: `Move` in "Shift+Move" is any move key. */
  groups?: Readonly<Record<string, C>>;
  /**
   * Shift is asked of letters only, so Shift+↓ is ↓. Otherwise it is asked of every key but
   * the symbols it typed ("?", "/"), which leaves Shift+↓ free for a binding of its own.
   */
  shiftOnLettersOnly?: boolean;
}

interface Chord {
  key: string;
  shift: boolean;
  alt: boolean;
  /** Ctrl or ⌘ ("Mod"), ⌘ alone ("Meta"), or neither. */
  mod: "mod" | "meta" | null;
}

function parseChord(text: string): Chord {
  // "+" is a key too ("+", "Mod++"): the last "+" of a chord ending in one is its key.
  const plus = text.endsWith("+");
  const parts = (plus ? text.slice(0, -1) : text).split("+");
  const key = plus ? "+" : (parts.pop() ?? "");
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

/** A key's name to compare: " " is Space, letters are upper case. */
function keyName(key: string): string {
  if (key === " ") return "Space";
  return key.length === 1 ? key.toUpperCase() : key;
}

const isLetter = (key: string) => key.length === 1 && key.toLowerCase() !== key.toUpperCase();

function modifiersMatch(chord: Chord, press: KeyPress, shiftOnLettersOnly: boolean): boolean {
  if (chord.alt !== press.altKey) return false;
  // "/" and "?" are what Shift made of the key already: Shift is not asked of them again.
  const asksShift = isLetter(chord.key) || (!shiftOnLettersOnly && chord.key.length > 1);
  if (asksShift && chord.shift !== press.shiftKey) return false;
  if (chord.mod === "mod") return press.ctrlKey || press.metaKey;
  if (chord.mod === "meta") return press.metaKey && !press.ctrlKey;
  return !press.ctrlKey && !press.metaKey;
}

/** Whether a scope holds now; a keymap without scopes never asks. */
export type ScopeHolds<S extends string> = (scope: S) => boolean;

const keyApplies = <S extends string>(
  b: KeyBinding<string, S>,
  key: string,
  holds: ScopeHolds<S>,
) => !b.only || holds(b.only.scope) || (b.only.keys !== undefined && !b.only.keys.includes(key));

/** The keys a group stands for where the scopes hold, by name. */
function groupKeys<C extends string, S extends string>(
  keymap: Keymap<C, S>,
  command: C,
  holds: ScopeHolds<S>,
): Set<string> {
  return new Set(
    keymap.bindings
      .filter((b) => b.command === command)
      .flatMap((b) => b.keys.filter((k) => keyApplies(b, k, holds)))
      .map((k) => keyName(parseChord(k).key)),
  );
}

export interface KeyMatch<C extends string = string, S extends string = string> {
  binding: KeyBinding<C, S>;
  command: C;
  /** The key pressed, without its modifiers ("End" for Shift+End): moves read where to. */
  key: string;
}

/** The binding a key press stands for where the scopes hold, if any. */
export function matchKey<C extends string, S extends string>(
  keymap: Keymap<C, S>,
  press: KeyPress,
  holds: ScopeHolds<S> = () => false,
): KeyMatch<C, S> | null {
  const key = keyName(press.key);
  for (const binding of keymap.bindings) {
    for (const text of binding.keys) {
      const chord = parseChord(text);
      const group = keymap.groups?.[chord.key];
      const keyMatches = group
        ? groupKeys(keymap, group, holds).has(key)
        : keyName(chord.key) === key;
      if (!keyMatches || !keyApplies(binding, chord.key, holds)) continue;
      if (!modifiersMatch(chord, press, !!keymap.shiftOnLettersOnly)) continue;
      const command = (!group && binding.keyCommands?.[chord.key]) || binding.command;
      return { binding, command, key };
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

/** A chord's keys as a person reads them, e.g. ["Shift", "Delete"]; a group is not a key. */
export function chordParts(keymap: Keymap, text: string): { label: string; isKey: boolean }[] {
  return text
    .split("+")
    .map((part) =>
      keymap.groups?.[part]
        ? { label: `a ${part.toLowerCase()} key`, isKey: false }
        : { label: shownNames[part] ?? part, isKey: true },
    );
}

const chordLabel = (keymap: Keymap, text: string) =>
  chordParts(keymap, text)
    .map((p) => p.label)
    .join(" + ");

/** "Shift + Delete or Shift + ⌘ + Backspace": alternatives read as alternatives. */
export const describeKeys = (keymap: Keymap, binding: KeyBinding) =>
  binding.keys.map((k) => chordLabel(keymap, k)).join(" or ");

const bindingFor = <C extends string>(keymap: Keymap<C>, command: C) =>
  keymap.bindings.find((b) => b.command === command);

/** The first key of a command, as menus show it next to the action ("Shift + Delete"). */
export function shortcutLabel<C extends string>(keymap: Keymap<C>, command: C) {
  const first = bindingFor(keymap, command)?.keys[0];
  return first ? chordLabel(keymap, first) : undefined;
}

/** The command's keys in `aria-keyshortcuts` form ("Delete Meta+Backspace"). */
export const ariaKeyShortcuts = <C extends string>(keymap: Keymap<C>, command: C) =>
  bindingFor(keymap, command)
    ?.keys.map((k) => k.replace("Mod+", "Control+"))
    .join(" ");
