import { describe, expect, it } from "vitest";
import { renamePatternSchema } from "@/contract/operations";
import { sequenceFrame, sequenceKey } from "@/contract/rules";
import { ApiError } from "@/server/lib/api-error";
import { compilePattern, type EntryType, type PlanEntry, planRenames } from "./rename-plan";

const entry = (path: string, isFile = true): PlanEntry => {
  const i = path.lastIndexOf("/");
  return { path, name: path.slice(i + 1), folder: i < 0 ? "" : path.slice(0, i), isFile };
};
const pattern = (p: unknown) => renamePatternSchema.parse(p);
/** The new name of each of `names` (files in one folder) under the pattern, in plan order. */
const renamed = (p: unknown, names: string[], isFile = true) =>
  planRenames(
    names.map((n) => entry(n, isFile)),
    pattern(p),
    false,
    () => undefined,
  ).steps.map((s) => s.newName);

describe("the pattern", () => {
  it("finds and replaces every occurrence of literal text, special characters and $ included", () => {
    expect(renamed({ find: "a.b", replace: "$1x" }, ["a.b-a.b-aXb.txt"])).toEqual([
      "$1x-$1x-aXb.txt",
    ]);
  });

  it("ignores case when asked, for literal text and regex alike", () => {
    expect(renamed({ find: "SHOT", replace: "take" }, ["shot_1.exr"])).toEqual(["shot_1.exr"]);
    expect(renamed({ find: "SHOT", replace: "take", ignoreCase: true }, ["Shot_1.exr"])).toEqual([
      "take_1.exr",
    ]);
    expect(
      renamed({ find: "^s(h)", replace: "X$1", regex: true, ignoreCase: true }, ["SHOT.exr"]),
    ).toEqual(["XHOT.exr"]);
  });

  it("expands groups in a regex replacement ($1, $<name>, $&, $$)", () => {
    expect(
      renamed({ find: "^(\\w+)_(\\d+)$", replace: "$2-$1", regex: true }, ["shot_12.exr"]),
    ).toEqual(["12-shot.exr"]);
    expect(
      renamed({ find: "(?P<n>\\d+)", replace: "[$<n>]$$", regex: true }, ["take7.mov"]),
    ).toEqual(["take[7]$.mov"]);
    expect(renamed({ find: "o", replace: "<$&>", regex: true }, ["foo"])).toEqual(["f<o><o>"]);
  });

  it("keeps the extension out unless includeExtension", () => {
    expect(renamed({ find: "exr", replace: "dpx" }, ["exr_plate.exr"])).toEqual(["dpx_plate.exr"]);
    expect(
      renamed({ find: "exr", replace: "dpx", includeExtension: true }, ["exr_plate.exr"]),
    ).toEqual(["dpx_plate.dpx"]);
    expect(renamed({ suffix: "_v2" }, ["a.tar.gz", ".env", "noext"])).toEqual([
      ".env_v2",
      "a.tar_v2.gz",
      "noext_v2",
    ]);
    expect(renamed({ suffix: "_v2", includeExtension: true }, ["a.mov"])).toEqual(["a.mov_v2"]);
    // A folder's dots are part of its name.
    expect(renamed({ suffix: "_v2" }, ["Shots.2026"], false)).toEqual(["Shots.2026_v2"]);
  });

  it("adds a prefix and a suffix after find and replace and numbering", () => {
    expect(
      renamed(
        {
          find: "draft",
          replace: "final",
          prefix: "ACME_",
          suffix: "_ok",
          numbering: { position: "suffix" },
        },
        ["draft.txt"],
      ),
    ).toEqual(["ACME_final_001_ok.txt"]);
    expect(
      renamed({ prefix: "shot_", numbering: { position: "replace", padding: 4 } }, [
        "a.exr",
        "b.exr",
      ]),
    ).toEqual(["shot_0001.exr", "shot_0002.exr"]);
  });

  it("numbers in natural name order, from start by step, padded, at the chosen position", () => {
    const names = ["f10.txt", "F2.txt", "f1.txt"];
    expect(renamed({ numbering: {} }, names)).toEqual(["f1_001.txt", "F2_002.txt", "f10_003.txt"]);
    expect(
      renamed(
        { numbering: { start: 0, step: 10, padding: 1, position: "prefix", separator: " - " } },
        names,
      ),
    ).toEqual(["0 - f1.txt", "10 - F2.txt", "20 - f10.txt"]);
    expect(renamed({ numbering: { start: 999_999, padding: 8, separator: "" } }, ["a"])).toEqual([
      "a00999999",
    ]);
    // Padding is a minimum width: wider numbers are not cut.
    expect(renamed({ numbering: { start: 1000, padding: 2 } }, ["a"])).toEqual(["a_1000"]);
  });

  it("starts numbering again in each folder", () => {
    const plan = planRenames(
      [entry("b/x"), entry("a/y"), entry("a/x")],
      pattern({ numbering: { position: "replace" } }),
      false,
      () => undefined,
    );
    expect(plan.steps.map((s) => s.to)).toEqual(["a/001", "a/002", "b/001"]);
  });

  it("gives names in NFC", () => {
    expect(renamed({ suffix: "e\u0301" }, ["caf"])).toEqual(["caf\u00e9"]);
  });

  it("refuses a regex that is not RE2: a 400 on pattern.find that says why", () => {
    for (const find of ["(", "(a)\\1", "(?=a)", "(?<!a)b", "a{2000}"]) {
      let error: unknown;
      try {
        compilePattern(pattern({ find, regex: true }));
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ApiError);
      const { status, code, details, message } = error as ApiError;
      expect({ status, code }).toEqual({ status: 400, code: "validation_failed" });
      expect(details).toMatchObject({ issues: [{ field: "pattern.find", code: "invalid_regex" }] });
      expect(message).toMatch(/error parsing regexp/);
      expect(message).toMatch(/RE2 syntax.*no backreferences.*no lookaround/);
    }
    // The same text is fine as literal text.
    expect(() => compilePattern(pattern({ find: "(a)\\1" }))).not.toThrow();
  });

  it("runs a catastrophic-backtracking pattern in linear time, with the right result", () => {
    const names = Array.from({ length: 200 }, (_, i) => `${"a".repeat(250)}b${i}`);
    const steps = planRenames(
      names.map((n) => entry(n)),
      pattern({ find: "(a+)+$", replace: "X", regex: true }),
      false,
      () => undefined,
    ).steps;
    // No name ends in a run of a's, so nothing matches and nothing changes.
    expect(steps.every((s) => s.unchanged)).toBe(true);
    const evil = planRenames(
      [entry("a".repeat(255))],
      pattern({ find: "(a+)+$", replace: "X", regex: true }),
      false,
      () => undefined,
    ).steps;
    expect(evil[0]!.newName).toBe("X");
  });
});

describe("sequences", () => {
  it("reads a frame: the digits ending the stem, before the extension", () => {
    expect(sequenceFrame("shot.0001.exr")).toEqual({ prefix: "shot.", digits: 4, ext: ".exr" });
    expect(sequenceFrame("0001.dpx")).toEqual({ prefix: "", digits: 4, ext: ".dpx" });
    expect(sequenceFrame("plate_v2_1001")).toEqual({ prefix: "plate_v2_", digits: 4, ext: "" });
    expect(sequenceFrame("take12.mov")).toBeNull();
    expect(sequenceFrame("shot.exr")).toBeNull();
    expect(sequenceKey("shot.0001.exr")).toBe(sequenceKey("shot.0240.exr"));
    expect(sequenceKey("shot.0001.exr")).not.toBe(sequenceKey("shot.001.exr"));
    expect(sequenceKey("shot.0001.exr")).not.toBe(sequenceKey("shot.0001.dpx"));
    expect(sequenceKey("shot.0001.exr")).not.toBe(sequenceKey("Shot.0001.exr"));
  });
});

describe("conflicts", () => {
  const plan = (
    paths: string[],
    p: unknown,
    tree: Record<string, EntryType> = {},
    overwrite = false,
  ) =>
    planRenames(
      paths.map((x) => entry(x, tree[x] !== "folder")),
      pattern(p),
      overwrite,
      (x) => tree[x],
    );

  it("marks a name that exists, and says what stands there", () => {
    const result = plan(
      ["a.txt"],
      { find: "a", replace: "b" },
      { "a.txt": "file", "b.txt": "file" },
    );
    expect(result.conflicts).toEqual([
      {
        from: "a.txt",
        to: "b.txt",
        reason: "exists",
        existingType: "file",
        message: expect.stringContaining("already exists"),
      },
    ]);
    expect(result.steps[0]).toMatchObject({
      conflict: "exists",
      overwrite: false,
      unchanged: false,
    });
  });

  it("lets overwrite replace a file with a file, never a folder or by a folder", () => {
    const tree: Record<string, EntryType> = {
      "a.txt": "file",
      "b.txt": "file",
      "c.txt": "folder",
      d: "folder",
      c: "file",
    };
    const result = plan(["a.txt", "d"], { find: "a", replace: "b" }, tree, true);
    expect(result.conflicts).toEqual([]);
    expect(result.steps.find((s) => s.from === "a.txt")).toMatchObject({ overwrite: true });
    const folders = plan(["a.txt", "d"], { find: "^[ad]", replace: "c", regex: true }, tree, true);
    expect(folders.conflicts.map((c) => [c.from, c.reason, c.existingType])).toEqual([
      ["a.txt", "exists", "folder"],
      ["d", "exists", "file"],
    ]);
  });

  it("marks two items given one name, and an item given the name another keeps", () => {
    const result = plan(["x1.txt", "x2.txt", "y.txt"], { find: "\\d|y", replace: "", regex: true });
    expect(result.conflicts.map((c) => [c.from, c.reason])).toEqual([
      ["x1.txt", "duplicate_in_plan"],
      ["x2.txt", "duplicate_in_plan"],
    ]);
    const kept = plan(["a", "ab"], { find: "b", replace: "" });
    expect(kept.conflicts.map((c) => [c.from, c.reason])).toEqual([["ab", "duplicate_in_plan"]]);
    expect(kept.steps[0]).toMatchObject({ unchanged: true, conflict: null });
  });

  it("marks names the rules refuse instead of failing", () => {
    const empty = plan(["c"], { find: "c", replace: "" }, { c: "folder" });
    expect(empty.conflicts).toEqual([
      {
        from: "c",
        to: "",
        reason: "invalid_name",
        existingType: null,
        message: expect.any(String),
      },
    ]);
    const slash = plan(["a.txt"], { find: "a", replace: "x/y" });
    expect(slash.conflicts[0]).toMatchObject({ reason: "invalid_name", to: "x/y.txt" });
    const long = plan(["a.txt"], {
      prefix: "p".repeat(120),
      suffix: "s".repeat(120),
      find: "a",
      replace: "r".repeat(20),
    });
    expect(long.conflicts[0]).toMatchObject({ reason: "invalid_name" });
    expect(long.conflicts[0]!.message).toMatch(/at most 255/);
    const dots = plan(["a"], { find: "a", replace: ".." });
    expect(dots.conflicts[0]).toMatchObject({ reason: "invalid_name" });
  });

  it("frees a name that another item of the plan leaves: swaps and chains plan clean", () => {
    const swap = plan(
      ["a.b", "b.a"],
      { find: "^(\\w)\\.(\\w)$", replace: "$2.$1", regex: true, includeExtension: true },
      { "a.b": "file", "b.a": "file" },
    );
    expect(swap.steps.map((s) => [s.from, s.to])).toEqual([
      ["a.b", "b.a"],
      ["b.a", "a.b"],
    ]);
    expect(swap.conflicts).toEqual([]);
    const chain = plan(
      ["1", "2"],
      { numbering: { position: "replace", start: 2, padding: 1 } },
      { "1": "file", "2": "file" },
    );
    expect(chain.steps.map((s) => s.to)).toEqual(["2", "3"]);
    expect(chain.conflicts).toEqual([]);
    expect(chain.changed).toBe(2);
  });
});
