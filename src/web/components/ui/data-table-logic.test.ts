import { describe, expect, it } from "vitest";
import { nearEnd, rowAfterKey, spacerHeights, visibleColumns } from "./data-table-logic";

const columns = [
  { id: "name" },
  { id: "folder", hideBelow: "md" as const },
  { id: "size", hideBelow: "sm" as const },
  { id: "purged", hideBelow: "xl" as const },
];
const ids = (width: number) => visibleColumns(columns, width).map((c) => c.id);

describe("visibleColumns", () => {
  it("keeps a column from its breakpoint up, measured on the table's own width", () => {
    expect(ids(1280)).toEqual(["name", "folder", "size", "purged"]);
    expect(ids(1279)).toEqual(["name", "folder", "size"]);
    expect(ids(768)).toEqual(["name", "folder", "size"]);
    expect(ids(767)).toEqual(["name", "size"]);
    expect(ids(640)).toEqual(["name", "size"]);
  });

  it("keeps only what never hides on a phone, and before the table is measured", () => {
    expect(ids(358)).toEqual(["name"]);
    expect(ids(0)).toEqual(["name"]);
  });
});

describe("spacerHeights", () => {
  it("stands in for the rows above and below the rendered ones", () => {
    expect(spacerHeights([0, 19], 100, 44)).toEqual({ before: 0, after: 80 * 44 });
    expect(spacerHeights([40, 69], 100, 44)).toEqual({ before: 40 * 44, after: 30 * 44 });
    expect(spacerHeights([80, 99], 100, 44)).toEqual({ before: 80 * 44, after: 0 });
  });

  it("is empty when nothing is rendered", () => {
    expect(spacerHeights(null, 0, 44)).toEqual({ before: 0, after: 0 });
  });
});

describe("nearEnd", () => {
  it("asks for more once a row within ten of the end is rendered", () => {
    expect(nearEnd(89, 100)).toBe(false);
    expect(nearEnd(90, 100)).toBe(true);
    expect(nearEnd(4, 5)).toBe(true);
    expect(nearEnd(undefined, 0)).toBe(false);
  });
});

describe("rowAfterKey", () => {
  it("moves one row with the arrows, to the ends with Home and End, and stays inside", () => {
    expect(rowAfterKey("ArrowDown", 3, 10)).toBe(4);
    expect(rowAfterKey("ArrowDown", 9, 10)).toBe(9);
    expect(rowAfterKey("ArrowUp", 0, 10)).toBe(0);
    expect(rowAfterKey("ArrowUp", 3, 10)).toBe(2);
    expect(rowAfterKey("Home", 7, 10)).toBe(0);
    expect(rowAfterKey("End", 2, 10)).toBe(9);
  });

  it("ignores other keys and empty tables", () => {
    expect(rowAfterKey("Enter", 3, 10)).toBeNull();
    expect(rowAfterKey("ArrowDown", 0, 0)).toBeNull();
  });
});
