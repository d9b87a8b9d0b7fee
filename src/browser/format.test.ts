import { describe, expect, it } from "vitest";
import { formatBytes, formatExactAndRelative, formatExactDateTime, formatRelative } from "./format";

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
