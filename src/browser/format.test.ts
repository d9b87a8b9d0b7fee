import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatDuration,
  formatExactAndRelative,
  formatExactDateTime,
  formatRelative,
} from "./format";

describe("formatBytes", () => {
  it("uses decimal units and keeps folders blank", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(1500)).toBe("1.5 KB");
    expect(formatBytes(250_000_000)).toBe("250 MB");
    expect(formatBytes(null)).toBe("—");
  });
});

describe("formatRelative", () => {
  it("says how far away a moment is, in the largest whole unit", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(formatRelative("2026-01-13T00:00:00Z", now)).toMatch(/12 days/);
    expect(formatRelative("2025-12-31T23:57:00Z", now)).toMatch(/3 minutes ago/);
  });
});

describe("formatExactAndRelative", () => {
  it("gives the moment to the second, then its age", () => {
    const now = Date.parse("2026-11-25T14:06:27Z");
    const text = formatExactAndRelative("2026-11-25T14:03:27Z", now);
    expect(text).toBe(`${formatExactDateTime("2026-11-25T14:03:27Z")} · 3 minutes ago`);
    // Seconds are shown: two versions a second apart read differently.
    expect(formatExactDateTime("2026-11-25T14:03:27Z")).not.toBe(
      formatExactDateTime("2026-11-25T14:03:28Z"),
    );
    expect(formatExactDateTime("2026-11-25T14:03:27Z")).toMatch(/27/);
  });
});

describe("formatDuration", () => {
  it("says durations in the two largest units, a zero part left out", () => {
    expect(formatDuration(45)).toBe("45 s");
    expect(formatDuration(200)).toBe("3 min 20 s");
    expect(formatDuration(250)).toBe("4 min 10 s");
    expect(formatDuration(240)).toBe("4 min");
    expect(formatDuration(3_900)).toBe("1 h 5 min");
    expect(formatDuration(7500)).toBe("2 h 5 min");
    expect(formatDuration(7_199)).toBe("1 h 59 min");
  });

  it("rounds to the second first", () => {
    expect(formatDuration(12.4)).toBe("12 s");
    expect(formatDuration(59.6)).toBe("1 min");
    expect(formatDuration(-3)).toBe("0 s");
  });
});
