import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ShortcutsTable } from "@/web/components/shortcuts-dialog";
import { describeKeys, type KeyPress } from "@/web/lib/keymap/keymap";
import { filesKeymap, matchFilesKey } from "./keymap";

const press = (key: string, mods: Partial<Omit<KeyPress, "key">> = {}): KeyPress => ({
  key,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

const commandOf = (p: KeyPress, layout: "list" | "grid" = "list") =>
  matchFilesKey(p, layout)?.command ?? null;

describe("files keymap", () => {
  it("matches plain keys, and passes the key a move goes by", () => {
    expect(matchFilesKey(press("ArrowDown"), "list")).toMatchObject({
      binding: { command: "move" },
      key: "ArrowDown",
    });
    expect(commandOf(press("Enter"))).toBe("open");
    expect(commandOf(press(" "))).toBe("toggle");
    expect(commandOf(press("F2"))).toBe("rename");
    expect(commandOf(press("x"))).toBeNull();
  });

  it("tells modifiers apart: Shift extends, Ctrl or ⌘ only moves, Alt+↑ is the parent", () => {
    expect(matchFilesKey(press("End", { shiftKey: true }), "list")).toMatchObject({
      binding: { command: "extend" },
      key: "End",
    });
    expect(commandOf(press("PageDown", { ctrlKey: true }))).toBe("moveOnly");
    expect(commandOf(press("ArrowUp", { metaKey: true }))).toBe("moveOnly");
    expect(commandOf(press("ArrowUp", { altKey: true }))).toBe("parent");
    expect(commandOf(press("Backspace"))).toBe("parent");
    expect(commandOf(press("Delete"))).toBe("trash");
    expect(commandOf(press("Delete", { shiftKey: true }))).toBe("deletePermanently");
    expect(commandOf(press("Backspace", { metaKey: true }))).toBe("trash");
    expect(commandOf(press("Backspace", { metaKey: true, shiftKey: true }))).toBe(
      "deletePermanently",
    );
    // ⌘+Backspace is the Mac's Delete; Ctrl+Backspace is not bound.
    expect(commandOf(press("Backspace", { ctrlKey: true }))).toBeNull();
    expect(commandOf(press("a", { ctrlKey: true }))).toBe("selectAll");
    expect(commandOf(press("a", { metaKey: true }))).toBe("selectAll");
    expect(commandOf(press("a"))).toBeNull();
    expect(commandOf(press("F10", { shiftKey: true }))).toBe("contextMenu");
    expect(commandOf(press("F10"))).toBeNull();
  });

  it("takes ? and / as typed, whatever Shift it took to type them", () => {
    expect(commandOf(press("?", { shiftKey: true }))).toBe("showShortcuts");
    expect(commandOf(press("/"))).toBe("search");
    expect(commandOf(press("/", { ctrlKey: true }))).toBeNull();
  });

  it("moves sideways in the grid only", () => {
    expect(commandOf(press("ArrowRight"), "list")).toBeNull();
    expect(commandOf(press("ArrowRight"), "grid")).toBe("move");
    expect(commandOf(press("ArrowLeft", { shiftKey: true }), "list")).toBeNull();
    expect(commandOf(press("ArrowLeft", { shiftKey: true }), "grid")).toBe("extend");
  });

  it("describes alternatives as alternatives and chords as combinations", () => {
    const by = (command: string) => filesKeymap.bindings.find((b) => b.command === command)!;
    expect(describeKeys(filesKeymap, by("move"))).toBe("↑ or ↓");
    expect(describeKeys(filesKeymap, by("parent"))).toBe("Backspace or Alt + ↑");
    expect(describeKeys(filesKeymap, by("deletePermanently"))).toBe(
      "Shift + Delete or Shift + ⌘ + Backspace",
    );
    expect(describeKeys(filesKeymap, by("extend"))).toBe("Shift + a move key");
    for (const binding of filesKeymap.bindings)
      expect(describeKeys(filesKeymap, binding)).not.toMatch(/[↑↓←→] \+ /);
  });

  it("shows every binding in the ? dialog, with its keys and its description", () => {
    const html = renderToStaticMarkup(createElement(ShortcutsTable, { keymap: filesKeymap }));
    const rows = [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)]
      .slice(1)
      .map((m) => (m[1] ?? "").replace(/<[^>]+>/g, ""));
    expect(rows).toHaveLength(filesKeymap.bindings.length);
    filesKeymap.bindings.forEach((binding, i) => {
      expect(binding.description).not.toBe("");
      expect(rows[i]).toBe(`${describeKeys(filesKeymap, binding)}${binding.description}`);
    });
  });
});
