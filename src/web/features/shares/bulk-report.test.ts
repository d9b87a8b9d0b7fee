import { describe, expect, it } from "vitest";
import { bulkReport } from "./bulk-report";

const titles = new Map([
  ["s1", "Cut"],
  ["s2", "Notes"],
]);

describe("bulkReport", () => {
  it("counts what was done", () => {
    expect(bulkReport("Extended", { done: ["s1", "s2"], failed: [] }, titles)).toEqual({
      title: "Extended 2 shares",
      description: undefined,
      tone: undefined,
    });
    expect(bulkReport("Revoked", { done: ["s1"], failed: [] }, titles).title).toBe(
      "Revoked 1 share",
    );
  });

  it("names each refused share by title with the service's reason", () => {
    const report = bulkReport(
      "Extended",
      {
        done: ["s1"],
        failed: [{ shareId: "s2", code: "revoked", message: "A revoked share cannot be changed" }],
      },
      titles,
    );
    expect(report.title).toBe("Extended 1 share; 1 could not be");
    expect(report.description).toBe("Notes: A revoked share cannot be changed");
    expect(report.tone).toBeUndefined();
  });

  it("is an error when nothing was done, and falls back to the id", () => {
    const report = bulkReport(
      "Revoked",
      {
        done: [],
        failed: [{ shareId: "zz", code: "not_found", message: "Share zz was not found" }],
      },
      titles,
    );
    expect(report.title).toBe("Revoked 0 shares; 1 could not be");
    expect(report.description).toBe("zz: Share zz was not found");
    expect(report.tone).toBe("error");
  });
});
