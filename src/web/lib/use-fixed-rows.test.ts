import { describe, expect, it } from "vitest";
import { type FixedRowsOptions, rowSpan, scrollTopFor } from "@/web/lib/use-fixed-rows";

// The Files list: 36 px rows under a 36 px sticky header, 64 px kept for the selection bar.
const list = (count: number, overscan = 0): FixedRowsOptions => ({
  count,
  size: 36,
  overscan,
  paddingStart: 36,
  paddingEnd: 64,
  scrollPaddingStart: 36,
  scrollPaddingEnd: 64,
});

describe("rowSpan", () => {
  it("covers exactly the rows that meet the view, plus the overscan on each side", () => {
    // Rows start at 36 + 36 i: a 360 px view at the top shows rows 0 to 8.
    expect(rowSpan({ top: 0, height: 360 }, list(100_000))).toEqual([0, 8]);
    expect(rowSpan({ top: 0, height: 360 }, list(100_000, 10))).toEqual([0, 18]);
    // Scrolled to row 50's start: rows 50 to 59 meet the view (59 by its top edge).
    expect(rowSpan({ top: 36 + 50 * 36, height: 360 }, list(100_000))).toEqual([50, 59]);
    expect(rowSpan({ top: 36 + 50 * 36, height: 360 }, list(100_000, 10))).toEqual([40, 69]);
  });

  it("stays inside the rows there are", () => {
    expect(rowSpan({ top: 0, height: 800 }, list(10, 10))).toEqual([0, 9]);
    // At the very end the first row meeting the view is 99,979 (it starts 20 px above it).
    const end = 36 + 100_000 * 36 + 64 - 800;
    expect(rowSpan({ top: end, height: 800 }, list(100_000, 10))).toEqual([99_969, 99_999]);
    expect(rowSpan({ top: 0, height: 800 }, list(0))).toBeNull();
  });

  it("renders only the overscan before the view is measured", () => {
    expect(rowSpan({ top: 0, height: 0 }, list(500, 10))).toEqual([0, 8]);
  });
});

describe("scrollTopFor", () => {
  const view = { top: 36 * 100, height: 360 };
  const scrollHeight = 36 + 1000 * 36 + 64;

  it("leaves a row in view where it is", () => {
    expect(scrollTopFor(100, "auto", view, scrollHeight, list(1000))).toBeNull();
  });

  it("brings a row above the view down to just under the sticky header", () => {
    expect(scrollTopFor(50, "auto", view, scrollHeight, list(1000))).toBe(36 * 50);
  });

  it("brings a row below the view up to just above the selection bar", () => {
    // Row 120 ends at 36 + 121 * 36; the view's bottom 64 px belong to the bar.
    expect(scrollTopFor(120, "auto", view, scrollHeight, list(1000))).toBe(
      36 + 121 * 36 - 360 + 64,
    );
  });

  it("centres a row, and never scrolls past either end", () => {
    expect(scrollTopFor(500, "center", view, scrollHeight, list(1000))).toBe(
      36 + 500 * 36 + 18 - 180,
    );
    expect(scrollTopFor(0, "center", view, scrollHeight, list(1000))).toBe(0);
    expect(scrollTopFor(999, "center", view, scrollHeight, list(1000))).toBe(scrollHeight - 360);
  });
});
