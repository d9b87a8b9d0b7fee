import { describe, expect, it } from "vitest";
import {
  emptySelection,
  isSelected,
  pickSelected,
  rangeBetween,
  renamePath,
  selectAll,
  selectedCount,
  selectionState,
  selectOnly,
  setMany,
  toggle,
} from "./selection";

describe("selection model", () => {
  it("selects one, toggles others in and out", () => {
    let s = selectOnly("a");
    s = toggle(s, "b");
    expect(selectedCount(s, 10)).toBe(2);
    s = toggle(s, "a");
    expect(isSelected(s, "a")).toBe(false);
    expect(isSelected(s, "b")).toBe(true);
  });

  it("select all stores exceptions, not every row", () => {
    let s = selectAll();
    expect(s.mode === "all" && s.except.size).toBe(0);
    expect(selectedCount(s, 100_000)).toBe(100_000);
    s = toggle(s, "x");
    expect(isSelected(s, "x")).toBe(false);
    expect(isSelected(s, "y")).toBe(true);
    expect(selectedCount(s, 100_000)).toBe(99_999);
    expect(selectionState(s, 100_000)).toBe("indeterminate");
    s = toggle(s, "x");
    expect(selectionState(s, 100_000)).toBe(true);
  });

  it("adds and removes ranges in both modes", () => {
    const some = setMany(selectOnly("a"), ["b", "c"], true);
    expect(pickSelected(some, ["a", "b", "c", "d"])).toEqual(["a", "b", "c"]);
    const all = setMany(selectAll(), ["b", "c"], false);
    expect(pickSelected(all, ["a", "b", "c", "d"])).toEqual(["a", "d"]);
    expect(pickSelected(setMany(all, ["b"], true), ["a", "b", "c"])).toEqual(["a", "b"]);
  });

  it("reports the header checkbox state", () => {
    expect(selectionState(emptySelection, 5)).toBe(false);
    expect(selectionState(selectOnly("a"), 5)).toBe("indeterminate");
    expect(selectionState(selectOnly("a"), 1)).toBe(true);
    expect(selectionState(selectAll(), 0)).toBe(false);
  });

  it("orders ranges and follows renames", () => {
    expect(rangeBetween(7, 3)).toEqual([3, 7]);
    expect(rangeBetween(2, 2)).toEqual([2, 2]);
    const s = renamePath(selectOnly("old"), "old", "new");
    expect(isSelected(s, "new")).toBe(true);
    expect(isSelected(s, "old")).toBe(false);
    expect(renamePath(selectOnly("a"), "b", "c")).toEqual(selectOnly("a"));
  });
});
