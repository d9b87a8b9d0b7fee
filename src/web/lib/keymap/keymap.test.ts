import { describe, expect, it } from "vitest";
import { type Keymap, type KeyPress, matchKey } from "./keymap";

type Held = "shiftKey" | "altKey" | "ctrlKey" | "metaKey";
const press = (key: string, ...held: Held[]): KeyPress => {
  const is = (modifier: Held) => held.includes(modifier);
  return {
    key,
    shiftKey: is("shiftKey"),
    altKey: is("altKey"),
    ctrlKey: is("ctrlKey"),
    metaKey: is("metaKey"),
  };
};

type Command = "next" | "first" | "last" | "help";

const next = { command: "next", description: "Next" } as const;
const ends = { command: "first", description: "Ends", keyCommands: { End: "last" } } as const;
const keymap: Keymap<Command, "focused"> = {
  shiftOnLettersOnly: true,
  bindings: [
    { ...next, keys: ["j", "ArrowDown"], only: { scope: "focused", keys: ["ArrowDown"] } },
    { ...ends, keys: ["Home", "End"], only: { scope: "focused" } },
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

  it("binds the + key itself, alone or with a modifier", () => {
    const zoom: Keymap<"in"> = {
      bindings: [{ keys: ["+", "Mod++"], command: "in", description: "" }],
    };
    expect(matchKey(zoom, press("+", "shiftKey"))?.command).toBe("in");
    expect(matchKey(zoom, press("+", "ctrlKey"))?.command).toBe("in");
  });

  it("runs a key's own command within a binding", () => {
    expect(commandOf(press("End"), true)).toBe("last");
  });

  it("asks Shift of letters only when the keymap says so, never of a symbol it typed", () => {
    expect(commandOf(press("J"), false)).toBe("next");
    expect(commandOf(press("J", "shiftKey"), false)).toBeNull();
    expect(commandOf(press("ArrowDown", "shiftKey"), true)).toBe("next");
    expect(commandOf(press("?", "shiftKey"), false)).toBe("help");
    expect(commandOf(press("j", "altKey"), false)).toBeNull();
    const strict = { ...keymap, shiftOnLettersOnly: false };
    expect(matchKey(strict, press("ArrowDown", "shiftKey"), () => true)).toBeNull();
    expect(matchKey(strict, press("?", "shiftKey"))?.command).toBe("help");
  });
});
