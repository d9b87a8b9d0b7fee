import { describe, expect, it } from "vitest";
import { nameMatches, namePatternProblem } from "./name-pattern";

describe("a portal's name rule", () => {
  it("takes RE2 syntax, a browser's RegExp's or not, and refuses what RE2 cannot run", () => {
    expect(namePatternProblem("^A\\d{3}_.*$")).toBeNull();
    expect(namePatternProblem("(?P<take>\\d+)\\.mov")).toBeNull();
    expect(namePatternProblem("(unclosed")).toMatch(/^Not an RE2 regular expression: /);
    expect(namePatternProblem("^(?!tmp).*")).toMatch(/no lookaround/);
    expect(namePatternProblem("(a)\\1")).toMatch(/no backreferences/);
  });

  it("matches a name as a whole, in time linear in the name", () => {
    expect(nameMatches("[A-Z]{3}_\\d+\\.mov", "ABC_12.mov")).toBe(true);
    expect(nameMatches("[A-Z]{3}_\\d+\\.mov", "xABC_12.mov")).toBe(false);
    expect(nameMatches("a|b", "ab")).toBe(false);
    expect(nameMatches("(a+)+$", `${"a".repeat(5000)}!`)).toBe(false);
    // One the service refused when saving: the name is left to the service to judge.
    expect(nameMatches("(?=a)b", "anything")).toBe(true);
  });
});
