import { describe, expect, it } from "vitest";
import { type Keymap, type KeyPress, matchKey } from "./keymap";

const press = (key: string, mods: Partial<Omit<KeyPress, "key">> = {}): KeyPress => ({
  key,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

type Command = "next" | "first" | "last" | "help";

const keymap: Keymap<Command, "focused"> = {
  shiftOnLettersOnly: true,
  bindings: [
    {
      keys: ["j", "ArrowDown"],
      only: { scope: "focused", keys: ["ArrowDown"] },
      command: "next",
      description: "Next",
    },
    {
      keys: ["Home", "End"],
      only: { scope: "focused" },
      command: "first",
      keyCommands: { End: "last" },
      description: "Ends",
    },
    { keys: ["?"], command: "help", description: "Help" },
  ],
};

const commandOf = (p: KeyPress, focused: boolean) =>
  matchKey(keymap, p, () => focused)?.command ?? null;

describe("keymap", () => {
  it("scopes a whole binding, or only some of its keys", () => {
    expect(commandOf(press("j"), false)).toBe("next");
    expect(commandOf(press("ArrowDown"), false)).toBeNull();
    expect(commandOf(press("ArrowDown"), true)).toBe("next");
    expect(commandOf(press("Home"), false)).toBeNull();
    expect(commandOf(press("Home"), true)).toBe("first");
  });

  it("runs a key's own command within a binding", () => {
    expect(commandOf(press("End"), true)).toBe("last");
  });

  it("asks Shift of letters only when the keymap says so, never of a symbol it typed", () => {
    expect(commandOf(press("J"), false)).toBe("next");
    expect(commandOf(press("J", { shiftKey: true }), false)).toBeNull();
    expect(commandOf(press("ArrowDown", { shiftKey: true }), true)).toBe("next");
    expect(commandOf(press("?", { shiftKey: true }), false)).toBe("help");
    expect(commandOf(press("j", { altKey: true }), false)).toBeNull();
    const strict = { ...keymap, shiftOnLettersOnly: false };
    expect(matchKey(strict, press("ArrowDown", { shiftKey: true }), () => true)).toBeNull();
    expect(matchKey(strict, press("?", { shiftKey: true }))?.command).toBe("help");
  });
});
