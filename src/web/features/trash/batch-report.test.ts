import { describe, expect, it } from "vitest";
import type { TrashItem } from "@/contract/files";
import { batchReport } from "./batch-report";

const item = (id: string, path: string): TrashItem => ({
  id,
  path,
  name: path.slice(path.lastIndexOf("/") + 1),
  sizeBytes: 1,
  type: "file",
  deletedAt: "2026-05-10T12:00:00Z",
  purgeAt: "2026-06-09T12:00:00Z",
});
const items = [
  item("a", "Projects/cut.mov"),
  item("b", "Projects/notes.txt"),
  item("c", "root.txt"),
  item("d", "Deliveries/report.pdf"),
  item("e", "Deliveries/brief.pdf"),
];
const restored = { past: "Restored", base: "restore" };
const reason = (e: unknown) => (e as Error).message;

describe("batchReport", () => {
  it("says what was restored, and nothing about names when none changed", () => {
    expect(batchReport(restored, items, { done: ["a"], failed: [], renamed: [] }, reason)).toEqual({
      title: "Restored “cut.mov”",
    });
    expect(batchReport(restored, items, { done: ["a", "b"], failed: [] }, reason)).toEqual({
      title: "Restored 2 items",
    });
  });

  it("names a renamed item's original path and the path it came back to", () => {
    const report = batchReport(
      restored,
      items,
      {
        done: ["a"],
        failed: [],
        renamed: [{ id: "a", path: "Projects/cut (restored).mov" }],
      },
      reason,
    );
    expect(report.title).toBe("Restored “cut.mov”");
    expect(report.description).toBe(
      "“Projects/cut.mov” is back as “Projects/cut (restored).mov”: its path is taken.",
    );
  });

  it("names the first three renames of a batch and counts the rest", () => {
    const renamed = ["a", "b", "c", "d", "e"].map((id) => ({ id, path: `${id} (restored)` }));
    const report = batchReport(
      restored,
      items,
      {
        done: renamed.map((r) => r.id),
        failed: [],
        renamed,
      },
      reason,
    );
    expect(report.description).toBe(
      "Renamed because their paths are taken: “Projects/cut.mov” is back as “a (restored)”; “Projects/notes.txt” is back as “b (restored)”; “root.txt” is back as “c (restored)”; and 2 more.",
    );
  });

  it("leads a partial failure with its first reason, then what was done", () => {
    const error = new Error("Not in the trash.");
    const report = batchReport(
      restored,
      items,
      {
        done: ["a"],
        failed: [{ id: "b", error }],
        renamed: [{ id: "a", path: "Projects/cut (restored).mov" }],
      },
      reason,
    );
    expect(report).toEqual({
      title: "Could not restore “notes.txt”",
      description:
        "Not in the trash. Restored “cut.mov”. “Projects/cut.mov” is back as “Projects/cut (restored).mov”: its path is taken.",
      tone: "error",
    });
  });
});
