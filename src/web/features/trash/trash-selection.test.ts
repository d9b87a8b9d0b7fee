import { describe, expect, it } from "vitest";
import type { TrashItem } from "@/contract/files";
import { noTrashFilter } from "./trash-filter";
import { serviceFilter, trashSelection } from "./trash-selection";

const now = Date.parse("2026-05-10T12:00:00Z");
const item = (id: string): TrashItem => ({
  id,
  path: `Projects/${id}.txt`,
  name: `${id}.txt`,
  sizeBytes: 1,
  type: "file",
  deletedAt: "2026-05-10T11:00:00Z",
  purgeAt: "2026-06-09T12:00:00Z",
});
const shown = ["a", "b", "c", "d"].map(item);
const filter = { text: " report ", deletedWithin: "7d" as const, folder: "Projects" };

describe("serviceFilter", () => {
  it("sends the three tests of the page's filter, the window as a time", () => {
    expect(serviceFilter(filter, now)).toEqual({
      q: "report",
      folder: "Projects",
      deletedAfter: "2026-05-03T12:00:00.000Z",
    });
    expect(serviceFilter(noTrashFilter, now)).toEqual({});
  });
});

describe("trashSelection", () => {
  it("sends the ids of a few picked items", () => {
    expect(trashSelection(shown.slice(0, 1), shown, filter, now)).toEqual({ itemIds: ["a"] });
  });

  it("sends the filter and what was left out when everything shown but a few is picked", () => {
    expect(trashSelection(shown.slice(0, 3), shown, filter, now)).toEqual({
      filter: serviceFilter(filter, now),
      allExcept: ["d"],
    });
    expect(trashSelection(shown, shown, noTrashFilter, now)).toEqual({
      filter: {},
      allExcept: [],
    });
  });

  it("sends nothing for nothing picked", () => {
    expect(trashSelection([], shown, filter, now)).toBeNull();
  });
});
