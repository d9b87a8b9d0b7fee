import path from "node:path";
import { describe, expect, it } from "vitest";
import { keysCreateCommand, parseExpiry } from "./cli-support";

const now = Date.parse("2026-06-01T12:00:00Z");

describe("parseExpiry", () => {
  it.each([
    ["2030-07-01", Date.UTC(2030, 6, 1)],
    ["2028-02-29", Date.UTC(2028, 1, 29)],
    ["2030-07-01T18:00:00Z", Date.UTC(2030, 6, 1, 18)],
    ["2030-07-01T18:00:00.5+02:00", Date.UTC(2030, 6, 1, 16, 0, 0, 500)],
    ["2030-07-01T18:00", new Date(2030, 6, 1, 18).getTime()],
  ])("accepts %s", (text, at) => {
    expect(parseExpiry(text, now)).toEqual({ ok: true, at });
  });

  it.each([
    "July 1 2030",
    "2030-07-01 18:00",
    "2030/07/01",
    "2030-7-1",
    "1909000000000",
    "2030-02-30",
    "2030-13-01",
    "2030-07-00",
    "2030-07-01T24:00",
    "2030-07-01T18:00:00+0200",
    "2030-07-01T18:00:00 Z",
    "",
  ])("refuses %j as not an ISO 8601 date or date-time", (text) => {
    const result = parseExpiry(text, now);
    expect(result).toMatchObject({ ok: false });
    expect(result.ok ? "" : result.message).toMatch(/ISO 8601/);
  });

  it("refuses a moment that is not in the future", () => {
    for (const text of ["2026-06-01T12:00:00Z", "2020-01-01"]) {
      const result = parseExpiry(text, now);
      expect(result.ok ? "" : result.message).toMatch(/must be in the future/);
    }
  });
});

describe("keysCreateCommand", () => {
  const root = path.resolve(import.meta.dirname, "../../..");
  it("names the data dir unless it is the one npm run keys opens by default", () => {
    expect(keysCreateCommand(path.join(root, "data"))).toBe("npm run keys -- create --scopes all");
    expect(keysCreateCommand("/srv/consign/data")).toBe(
      "DATA_DIR=/srv/consign/data npm run keys -- create --scopes all",
    );
    // Quoted for the shell when it must be.
    expect(keysCreateCommand("/tmp/my data/it's")).toBe(
      `DATA_DIR='/tmp/my data/it'\\''s' npm run keys -- create --scopes all`,
    );
  });
});
