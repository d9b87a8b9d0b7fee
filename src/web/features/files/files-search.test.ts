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
});
