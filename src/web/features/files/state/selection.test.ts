import { describe, expect, it } from "vitest";
import {
  emptySelection,
  isSelected,
  pickSelected,
  planRange,
  rangeBetween,
  rangeSelection,
  renamePath,
  selectAll,
  selectedCount,
  selectionState,
  selectOnly,
  setMany,
  toggle,
  union,
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

  it("selects a long range as all except the rows outside it, reading only their pages", () => {
    // Shift+End from row 5 of 100,000: the five rows above, on page 0, not 500 pages.
    const toEnd = planRange(5, 99_999, 100_000, 200);
    expect(toEnd).toEqual({ invert: true, spans: [[0, 4]] });
    const s = rangeSelection(toEnd, ["r0", "r1", "r2", "r3", "r4"]);
    expect(selectedCount(s, 100_000)).toBe(99_995);
    expect(isSelected(s, "r4")).toBe(false);
    expect(isSelected(s, "r5")).toBe(true);
    // A short range reads its own page; the whole folder reads nothing.
    expect(planRange(10, 30, 100_000, 200)).toEqual({ invert: false, spans: [[10, 30]] });
    expect(planRange(0, 99_999, 100_000, 200)).toEqual({ invert: true, spans: [] });
    expect(selectedCount(rangeSelection(planRange(0, 9, 10, 200), []), 10)).toBe(10);
    // A middle range reads whichever side sits on fewer pages: never more than half the folder.
    expect(planRange(400, 99_000, 100_000, 200)).toEqual({
      invert: true,
      spans: [
        [0, 399],
        [99_001, 99_999],
      ],
    });
    expect(planRange(40_000, 59_999, 100_000, 200).invert).toBe(false);
  });

  it("adds a range to what was selected in either mode (Ctrl+Shift)", () => {
    const rows = ["a", "b", "c", "d", "e"];
    const allButAB = rangeSelection({ invert: true, spans: [] }, ["a", "b"]);
    expect(pickSelected(union(selectOnly("a"), allButAB), rows)).toEqual(["a", "c", "d", "e"]);
    expect(pickSelected(union(allButAB, selectOnly("b")), rows)).toEqual(["b", "c", "d", "e"]);
    const allButBC = setMany(selectAll(), ["b", "c"], false);
    expect(pickSelected(union(allButAB, allButBC), rows)).toEqual(["a", "c", "d", "e"]);
    expect(pickSelected(union(selectOnly("a"), selectOnly("e")), rows)).toEqual(["a", "e"]);
  });
});
