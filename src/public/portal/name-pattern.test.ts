import { describe, expect, it } from "vitest";
import { loadNameMatcher } from "./name-pattern";
import { checkSelection } from "./portal-model";

const portal = (namePattern: string) => ({
  rules: { allowedExtensions: [], maxFiles: null, namePattern },
  maxBytesPerUpload: null,
});

describe("the portal page's name pattern", () => {
  it("is judged as the service judges it, with RE2", async () => {
    const matches = await loadNameMatcher();
    // RE2 syntax a browser's RegExp cannot read: the page must still refuse what the service does.
    const named = checkSelection(
      portal("(?P<take>\\d+)\\.mov"),
      [
        { path: "12.mov", size: 1 },
        { path: "shots/ab.mov", size: 1 },
      ],
      matches,
    );
    expect([...named.files.keys()]).toEqual(["shots/ab.mov"]);
    expect(named.files.get("shots/ab.mov")?.code).toBe("name_not_allowed");
    expect(matches("[A-Z]{3}_\\d+\\.mov", "ABC_12.mov")).toBe(true);
    expect(matches("[A-Z]{3}_\\d+\\.mov", "xABC_12.mov")).toBe(false);
    expect(matches("a|b", "ab")).toBe(false);
    expect(matches("\\p{L}+\\.mov", "Ünïcødé.mov")).toBe(true);
  });

  it("answers in time linear in the name, where a backtracking RegExp would not", async () => {
    const matches = await loadNameMatcher();
    // A browser's RegExp takes about 2^n steps for this; RE2 answers at once.
    expect(matches("(a+)+$", `${"a".repeat(5000)}!`)).toBe(false);
    expect(matches("(a+)+$", "a".repeat(5000))).toBe(true);
  });
});
