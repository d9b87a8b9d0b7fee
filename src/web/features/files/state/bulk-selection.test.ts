import { describe, expect, it } from "vitest";
import {
  emptySelection,
  selectAll,
  selectPaths,
  toggle,
} from "@/web/features/files/state/selection";
import { bulkEntrySelection, needsJob } from "./bulk-selection";

describe("trashing a selection", () => {
  it("is one DELETE for up to 500 picked paths and a job beyond, or for select all", () => {
    const paths = (n: number) => Array.from({ length: n }, (_, i) => `Plates/${i}.exr`);
    expect(needsJob(selectPaths(paths(500)))).toBe(false);
    expect(needsJob(selectPaths(paths(501)))).toBe(true);
    expect(needsJob(selectAll())).toBe(true);
    expect(needsJob(emptySelection)).toBe(false);
  });

  it("sends select all as the folder less the names left out, never every path", () => {
    const selection = toggle(selectAll(), "Plates/shot 0001.exr");
    expect(bulkEntrySelection(selection, "Plates")).toEqual({
      folder: "Plates",
      allExcept: ["shot 0001.exr"],
    });
    expect(bulkEntrySelection(selectPaths(["Plates/a", "Plates/b"]), "Plates")).toEqual({
      paths: ["Plates/a", "Plates/b"],
    });
  });

  it("refuses more picked paths than one body takes", () => {
    const many = selectPaths(Array.from({ length: 10_001 }, (_, i) => `P/${i}`));
    expect(bulkEntrySelection(many, "P")).toBeNull();
  });
});
