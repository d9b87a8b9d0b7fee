import { describe, expect, it } from "vitest";
import type { TrashItem } from "@/contract/files";
import {
  filterFromSearch,
  filterTrash,
  noTrashFilter,
  parseTrashSearch,
  searchFromFilter,
  trashFolders,
} from "./trash-filter";

const now = Date.parse("2026-05-10T12:00:00Z");
const item = (path: string, hoursAgo: number): TrashItem => ({
  id: path,
  path,
  name: path.slice(path.lastIndexOf("/") + 1),
  sizeBytes: 1,
  type: "file",
  deletedAt: new Date(now - hoursAgo * 3600_000).toISOString(),
  purgeAt: new Date(now + 30 * 24 * 3600_000).toISOString(),
});
const items = [
  item("Projects/Alpha/cut.mov", 1),
  item("Projects/Alpha 2/notes.txt", 30),
  item("Deliveries/Report.PDF", 24 * 10),
  item("root.txt", 24 * 40),
];
const paths = (filter: Partial<typeof noTrashFilter>) =>
  filterTrash(items, { ...noTrashFilter, ...filter }, now).map((i) => i.path);

describe("filterTrash", () => {
  it("keeps everything without a filter", () => {
    expect(paths({})).toHaveLength(4);
  });

  it("matches text anywhere in the original path, ignoring case", () => {
    expect(paths({ text: " report " })).toEqual(["Deliveries/Report.PDF"]);
    expect(paths({ text: "alpha" })).toEqual([
      "Projects/Alpha/cut.mov",
      "Projects/Alpha 2/notes.txt",
    ]);
  });

  it("keeps items deleted within the chosen window", () => {
    expect(paths({ deletedWithin: "24h" })).toEqual(["Projects/Alpha/cut.mov"]);
    expect(paths({ deletedWithin: "7d" })).toHaveLength(2);
    expect(paths({ deletedWithin: "30d" })).toHaveLength(3);
  });

  it("filters by folder as a path prefix, not a string prefix", () => {
    expect(paths({ folder: "Projects/Alpha" })).toEqual(["Projects/Alpha/cut.mov"]);
    expect(paths({ folder: "Projects" })).toHaveLength(2);
  });
});

describe("trashFolders", () => {
  it("lists each original folder and its ancestors once, root excluded", () => {
    expect(trashFolders(items)).toEqual([
      "Deliveries",
      "Projects",
      "Projects/Alpha",
      "Projects/Alpha 2",
    ]);
  });
});

describe("the filter in the URL", () => {
  it("round-trips every part, and leaves what is not filtered out of the URL", () => {
    const filter = { text: "report", deletedWithin: "7d" as const, folder: "Projects/Alpha" };
    expect(searchFromFilter(filter)).toEqual({
      q: "report",
      deleted: "7d",
      folder: "Projects/Alpha",
    });
    expect(filterFromSearch(parseTrashSearch({ ...searchFromFilter(filter) }))).toEqual(filter);
    expect(searchFromFilter(noTrashFilter)).toEqual({
      q: undefined,
      deleted: undefined,
      folder: undefined,
    });
  });

  it("falls back to no filter for anything it does not know", () => {
    expect(parseTrashSearch({ q: 5, deleted: "1y", folder: "" })).toEqual({
      q: undefined,
      deleted: undefined,
      folder: undefined,
    });
    expect(parseTrashSearch({ deleted: "all" }).deleted).toBeUndefined();
    expect(filterFromSearch(parseTrashSearch({}))).toEqual(noTrashFilter);
  });
});
