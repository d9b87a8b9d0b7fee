import { describe, expect, it } from "vitest";
import { parseFilesSearch } from "./files-search";

describe("parseFilesSearch", () => {
  it("keeps a valid deep path and known sort values", () => {
    expect(parseFilesSearch({ path: "Projects/A b", sort: "size", order: "desc" })).toEqual({
      path: "Projects/A b",
      sort: "size",
      order: "desc",
      select: undefined,
    });
    expect(parseFilesSearch({ path: "A", select: "A/b.txt" }).select).toBe("A/b.txt");
    expect(parseFilesSearch({ select: "../x" }).select).toBeUndefined();
  });

  it("falls back to the root for paths the service would reject", () => {
    for (const path of ["../etc", "/abs", "a//b", "a\\b", "a/./b", 42])
      expect(parseFilesSearch({ path }).path).toBeUndefined();
    expect(parseFilesSearch({ sort: "owner" }).sort).toBeUndefined();
  });

  it("enforces the contract's 4096-character bound on path and select", () => {
    const longest = `${"a/".repeat(2047)}ab`;
    expect(longest).toHaveLength(4096);
    expect(parseFilesSearch({ path: longest, select: longest })).toMatchObject({
      path: longest,
      select: longest,
    });
    const tooLong = parseFilesSearch({ path: `${longest}c`, select: `${longest}c` });
    expect(tooLong.path).toBeUndefined();
    expect(tooLong.select).toBeUndefined();
  });
});
