import { describe, expect, it } from "vitest";
import { toIso } from "./clock";

describe("toIso", () => {
  it("matches Date#toISOString, before and after the epoch", () => {
    const samples = [
      0,
      -1,
      1,
      86_399_999,
      86_400_000,
      Date.parse("2026-06-01T12:00:00.007Z"),
      -62_135_596_800_000,
    ];
    for (let i = 0; i < 20_000; i++) samples.push(Math.floor((Math.random() - 0.3) * 8e12));
    for (const ms of samples) expect(toIso(ms)).toBe(new Date(ms).toISOString());
  });
});
