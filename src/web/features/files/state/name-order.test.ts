import { describe, expect, it } from "vitest";
import { compareInNameOrder } from "./name-order";

describe("compareInNameOrder", () => {
  const file = (path: string) => ({ path, type: "file" as const });
  const folder = (path: string) => ({ path, type: "folder" as const });

  it("puts folders first in both directions", () => {
    expect(compareInNameOrder(folder("z"), file("a"), "asc")).toBeLessThan(0);
    expect(compareInNameOrder(folder("a"), file("z"), "desc")).toBeLessThan(0);
  });

  it("orders names naturally and case-insensitively, by the base name only", () => {
    expect(compareInNameOrder(file("x/frame_2"), file("a/frame_10"), "asc")).toBeLessThan(0);
    expect(compareInNameOrder(file("B.txt"), file("a.txt"), "asc")).toBeGreaterThan(0);
    expect(compareInNameOrder(file("frame_2"), file("frame_10"), "desc")).toBeGreaterThan(0);
    expect(compareInNameOrder(file("same"), file("same"), "asc")).toBe(0);
  });
});
