import { describe, expect, it } from "vitest";
import { parseFilesSearch } from "./files-search";

describe("parseFilesSearch", () => {
  it("keeps a valid deep path and known sort values", () => {
    expect(parseFilesSearch({ path: "Projects/A b", sort: "size", order: "desc" })).toEqual({
      path: "Projects/A b",
      sort: "size",
      order: "desc",
    });
  });

  it("falls back to the root for paths the service would reject", () => {
    for (const path of ["../etc", "/abs", "a//b", "a\\b", "a/./b", 42])
      expect(parseFilesSearch({ path }).path).toBeUndefined();
    expect(parseFilesSearch({ sort: "owner" }).sort).toBeUndefined();
  });
});
