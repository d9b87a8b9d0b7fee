import { describe, expect, it } from "vitest";
import type { TrashItem } from "@/contract/files";
import { jobReport } from "./batch-report";

const item = (id: string, path: string): TrashItem => ({
  id,
  path,
  name: path.slice(path.lastIndexOf("/") + 1),
  sizeBytes: 1,
  type: "file",
  deletedAt: "2026-05-10T12:00:00Z",
  purgeAt: "2026-06-09T12:00:00Z",
});
const items = [item("a", "Projects/cut.mov"), item("b", "Projects/notes.txt")];
const restored = { past: "Restored", base: "restore" };
const job = (o: Partial<Parameters<typeof jobReport>[2]>) => ({
  status: "completed" as const,
  done: 0,
  failed: 0,
  failures: [],
  error: null,
  ...o,
});

describe("jobReport", () => {
  it("names what was restored when the job did exactly the picked items", () => {
    expect(jobReport(restored, items.slice(0, 1), job({ done: 1 }))).toEqual({
      title: "Restored “cut.mov”",
    });
    expect(jobReport(restored, items, job({ done: 2 }))).toEqual({ title: "Restored 2 items" });
  });

  it("names a renamed item's original path and the path it came back to, when the job says", () => {
    const withRenames = {
      ...job({ done: 2 }),
      renamed: [{ itemId: "a", path: "Projects/cut (restored).mov" }],
    };
    expect(jobReport(restored, items, withRenames)).toEqual({
      title: "Restored 2 items",
      description:
        "“Projects/cut.mov” is back as “Projects/cut (restored).mov”: its path is taken.",
    });
  });

  it("counts what a filter selection reached beyond the items shown", () => {
    expect(jobReport(restored, items, job({ done: 5 }))).toEqual({ title: "Restored 5 items" });
  });

  it("leads a partial failure with its first reason, then what was done", () => {
    const report = jobReport(
      restored,
      items,
      job({
        done: 1,
        failed: 1,
        failures: [{ target: "b", code: "not_found", message: "Not in the trash." }],
      }),
    );
    expect(report).toEqual({
      title: "Could not restore “notes.txt”",
      description: "Not in the trash. Restored 1 item.",
      tone: "error",
    });
  });

  it("gives the job's error when it failed as a whole", () => {
    expect(jobReport(restored, items, job({ status: "failed", error: "Disk full." }))).toEqual({
      title: "Could not restore 2 items",
      description: "Disk full.",
      tone: "error",
    });
  });
});
