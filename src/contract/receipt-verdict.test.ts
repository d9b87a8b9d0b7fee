import { describe, expect, it } from "vitest";
import { CELL, cellOf, partyState, shareVerdict } from "./receipt-verdict";

describe("the delivery verdict", () => {
  it("reads a cell from a completed download of one file", () => {
    expect(cellOf(true, "ab")).toBe(CELL.verified);
    expect(cellOf(false, null)).toBe(CELL.unchecked);
    expect(cellOf(false, "ab")).toBe(CELL.failed);
  });

  it("judges a recipient on what they now hold", () => {
    expect(partyState("vvv")).toBe("verified");
    expect(partyState("vuv")).toBe("delivered_unverified");
    expect(partyState("v-u")).toBe("partly_delivered");
    expect(partyState("---")).toBe("not_delivered");
    expect(partyState("vx-")).toBe("failed");
  });

  it("judges the share on every recipient", () => {
    expect(shareVerdict([])).toBe("not_delivered");
    expect(shareVerdict(["verified", "verified"])).toBe("verified");
    expect(shareVerdict(["verified", "delivered_unverified"])).toBe("delivered_unverified");
    expect(shareVerdict(["verified", "not_delivered"])).toBe("partly_delivered");
    expect(shareVerdict(["not_delivered", "not_delivered"])).toBe("not_delivered");
    expect(shareVerdict(["verified", "failed", "not_delivered"])).toBe("failed");
  });
});
