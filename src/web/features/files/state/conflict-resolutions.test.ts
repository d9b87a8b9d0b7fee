import { describe, expect, it } from "vitest";
import type { OperationConflict } from "@/contract/operations";
import { choiceFor, conflictsOf, resolutionMembers } from "./conflict-resolutions";

const conflict = (path: string): OperationConflict => ({
  path,
  destinationPath: `Dest/${path.split("/").pop()}`,
  type: "file",
  existingType: "file",
});
const conflicts = [conflict("A/one.txt"), conflict("A/two.txt")];

describe("resolutionMembers", () => {
  it("sends a choice for all as onConflict, which also covers conflicts that appear later", () => {
    expect(
      resolutionMembers(conflicts, { all: "skip", each: { "A/one.txt": "overwrite" } }),
    ).toEqual({ onConflict: "skip" });
  });

  it("sends choices per item as resolutions for every listed conflict, keep both by default", () => {
    expect(resolutionMembers(conflicts, { all: null, each: { "A/one.txt": "overwrite" } })).toEqual(
      { resolutions: { "A/one.txt": "overwrite", "A/two.txt": "keepBoth" } },
    );
  });

  it("reads the choice of an item, the choice for all winning", () => {
    expect(choiceFor({ all: null, each: {} }, "x")).toBe("keepBoth");
    expect(choiceFor({ all: "overwrite", each: { x: "skip" } }, "x")).toBe("overwrite");
  });
});

/** The envelope as ApiError carries it (the client itself needs a browser). */
const refusal = (status: number, code: string, details: Record<string, unknown> | null) =>
  Object.assign(new Error("refused"), { status, code, details });

describe("conflictsOf", () => {
  it("reads details.conflicts of a conflict refusal", () => {
    const details = {
      issues: [{ field: "paths", code: "conflict", message: "2 item(s) would replace…" }],
      conflicts: [...conflicts, { junk: 1 }],
    };
    expect(conflictsOf(refusal(400, "validation_failed", details))).toEqual(conflicts);
    expect(conflictsOf(refusal(400, "conflict", details))).toEqual(conflicts);
  });

  it("is null for any other error", () => {
    expect(conflictsOf(refusal(400, "plan_limit", null))).toBeNull();
    expect(conflictsOf(refusal(409, "conflict", { conflicts }))).toBeNull();
    expect(conflictsOf(new Error("boom"))).toBeNull();
  });
});
