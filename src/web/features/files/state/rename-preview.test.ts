import { describe, expect, it } from "vitest";
import type { RenameBatchResult } from "@/contract/operations";
import {
  buildPattern,
  emptyRenameForm,
  isEmptyPattern,
  isPlanStale,
  previewRows,
} from "./rename-preview";

describe("buildPattern", () => {
  it("sends only what was asked for", () => {
    expect(buildPattern(emptyRenameForm)).toEqual({});
    expect(isEmptyPattern(buildPattern(emptyRenameForm))).toBe(true);
    expect(buildPattern({ ...emptyRenameForm, replace: "x", regex: true, prefix: "A_" })).toEqual({
      prefix: "A_",
    });
  });

  it("sends find with its replace and options, and numbering with numbers", () => {
    expect(
      buildPattern({
        ...emptyRenameForm,
        find: "v(\\d)",
        regex: true,
        ignoreCase: true,
        numbering: true,
        start: "10",
        step: "5",
        padding: "",
        position: "prefix",
        separator: "-",
      }),
    ).toEqual({
      find: "v(\\d)",
      replace: "",
      regex: true,
      ignoreCase: true,
      numbering: { start: 10, step: 5, padding: 3, position: "prefix", separator: "-" },
    });
  });
});

describe("previewRows", () => {
  const result = (r: Partial<RenameBatchResult>): RenameBatchResult => ({
    dryRun: true,
    expanded: 0,
    changed: 0,
    steps: [],
    conflicts: [],
    applied: [],
    failed: null,
    ...r,
  });

  it("shows every selected item unchanged before the first answer", () => {
    expect(previewRows(["F/a.txt", "F/b.txt"], undefined)).toEqual([
      { from: "F/a.txt", name: "a.txt", newName: "a.txt", status: "unchanged" },
      { from: "F/b.txt", name: "b.txt", newName: "b.txt", status: "unchanged" },
    ]);
  });

  it("marks steps renamed or in conflict with the reason, and lists untouched items after", () => {
    const rows = previewRows(
      ["F/a.txt", "F/b.txt", "F/c.txt"],
      result({
        steps: [
          { from: "F/a.txt", to: "F/x.txt", name: "a.txt", newName: "x.txt" },
          { from: "F/b.txt", to: "F/x.txt", name: "b.txt", newName: "x.txt" },
        ],
        conflicts: [{ from: "F/b.txt", message: "Two items would be named x.txt" }],
      }),
    );
    expect(rows.map((r) => [r.name, r.newName, r.status, r.reason])).toEqual([
      ["a.txt", "x.txt", "renamed", undefined],
      ["b.txt", "x.txt", "conflict", "Two items would be named x.txt"],
      ["c.txt", "c.txt", "unchanged", undefined],
    ]);
  });

  it("shows a conflict on an item outside the steps, naming it by path", () => {
    const rows = previewRows(
      ["F/a.txt"],
      result({ conflicts: [{ path: "F/a.txt", reason: "exists" }] }),
    );
    expect(rows).toEqual([
      { from: "F/a.txt", name: "a.txt", newName: "a.txt", status: "conflict", reason: "exists" },
    ]);
  });
});

describe("isPlanStale", () => {
  const refusal = (code: string, details: Record<string, unknown> | null) =>
    Object.assign(new Error("refused"), { status: 400, code, details });

  it("reads the plan_stale issue of a validation refusal", () => {
    const issues = [{ field: "planId", code: "plan_stale", message: "The plan is stale" }];
    expect(isPlanStale(refusal("validation_failed", { issues }))).toBe(true);
    expect(isPlanStale(refusal("plan_stale", null))).toBe(true);
  });

  it("is false for a bad pattern or any other error", () => {
    const issues = [{ field: "pattern.find", code: "invalid_regex", message: "Bad" }];
    expect(isPlanStale(refusal("validation_failed", { issues }))).toBe(false);
    expect(isPlanStale(new Error("boom"))).toBe(false);
    expect(isPlanStale(null)).toBe(false);
  });
});
