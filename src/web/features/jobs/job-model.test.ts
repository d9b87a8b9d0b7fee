import { describe, expect, it } from "vitest";
import type { BulkJob, Operation } from "@/contract/operations";
import { describeSelection, listShows, mergeJobs, percentOf } from "./job-model";

const bulk = (o: Partial<BulkJob>): BulkJob => ({
  id: "b1",
  kind: "bulk",
  action: "trash",
  status: "running",
  total: 1000,
  done: 0,
  failed: 0,
  failures: [],
  undoable: false,
  undoOf: null,
  error: null,
  createdAt: "2026-05-10T12:00:00Z",
  startedAt: "2026-05-10T12:00:00Z",
  finishedAt: null,
  ...o,
});
const move = (o: Partial<Operation>): Operation => ({
  id: "m1",
  kind: "move",
  status: "completed",
  destination: "Archive",
  overwrite: false,
  items: [{ path: "Projects/cut.mov", type: "file", bytes: 10 }],
  filesTotal: 1,
  filesDone: 1,
  bytesTotal: 10,
  bytesDone: 10,
  error: null,
  createdAt: "2026-05-10T12:05:00Z",
  startedAt: null,
  finishedAt: null,
  ...o,
});

describe("the job list", () => {
  it("puts active jobs on top, then the newest, each job once (the first list wins)", () => {
    const fresh = bulk({ done: 500 });
    const merged = mergeJobs([fresh], [move({ id: "m1" }), bulk({ done: 1 })]);
    expect(merged.map((j) => j.id)).toEqual(["b1", "m1"]);
    expect(merged[0]).toBe(fresh);
  });

  it("shows a percent only once the total is known, and 100 % for a completed job", () => {
    expect(percentOf(bulk({ total: null }))).toBeNull();
    expect(percentOf(bulk({ done: 250, failed: 5 }))).toBe(25);
    expect(percentOf(move({ status: "running", bytesDone: 3, bytesTotal: 10 }))).toBe(30);
    expect(percentOf(bulk({ status: "completed", total: 0 }))).toBe(100);
  });

  it("summarises each kind of selection", () => {
    expect(describeSelection({ folder: "Plates", allExcept: ["a", "b"] })).toBe(
      "Everything in “Plates” except 2",
    );
    expect(describeSelection({ paths: ["Plates/a.exr"] })).toBe("“a.exr”");
    expect(describeSelection({ itemIds: ["x", "y"] })).toBe("2 trash items");
    expect(describeSelection({ filter: { q: "plate" }, allExcept: [] })).toBe(
      "Trash items matching “plate”",
    );
  });
});

describe("listShows", () => {
  const at = (minute: number) => `2026-05-10T12:${String(minute).padStart(2, "0")}:00Z`;
  const newestFirst = (n: number) =>
    Array.from({ length: n }, (_, i) => bulk({ id: `b${i}`, createdAt: at(59 - i) }));

  it("a list shorter than its limit shows every active job", () => {
    expect(listShows(newestFirst(3), 50, at(0))).toBe(true);
  });

  it("a full list shows only the jobs created after its last", () => {
    const full = newestFirst(50); // the last was created at minute 10
    expect(listShows(full, 50, at(11))).toBe(true);
    expect(listShows(full, 50, at(10))).toBe(false);
    expect(listShows(full, 50, at(5))).toBe(false);
  });

  it("a list not read yet shows nothing", () => {
    expect(listShows(undefined, 50, at(0))).toBe(false);
  });
});
