import { describe, expect, it } from "vitest";
import { noSelection, selectedInOrder, toggleSelection } from "./upload-selection";

const order = ["a", "b", "c", "d", "e"];

describe("the queue's selection", () => {
  it("toggles one row, and a Shift-click sets the range from the last clicked row to its state", () => {
    let s = toggleSelection(noSelection, order, 1, false, 100);
    expect(selectedInOrder(s, order)).toEqual(["b"]);
    s = toggleSelection(s, order, 3, true, 100);
    expect(selectedInOrder(s, order)).toEqual(["b", "c", "d"]);
    s = toggleSelection(s, order, 2, false, 100);
    expect(selectedInOrder(s, order)).toEqual(["b", "d"]);
    // From c (now off), Shift on e turns e on, and with it c and d.
    s = toggleSelection(s, order, 4, true, 100);
    expect(selectedInOrder(s, order)).toEqual(["b", "c", "d", "e"]);
    s = toggleSelection(s, order, 0, true, 100);
    expect(selectedInOrder(s, order)).toEqual(["a", "b", "c", "d", "e"]);
    s = toggleSelection(s, order, 2, true, 100);
    expect(selectedInOrder(s, order)).toEqual(["d", "e"]);
  });

  it("stops at the bound of one request, and forgets rows no longer listed", () => {
    const s = toggleSelection(toggleSelection(noSelection, order, 0, false, 2), order, 4, true, 2);
    expect(selectedInOrder(s, order)).toEqual(["a", "b"]);
    expect(selectedInOrder(s, ["b", "c"])).toEqual(["b"]);
  });
});
