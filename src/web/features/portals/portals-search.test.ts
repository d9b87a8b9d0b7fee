import { describe, expect, it } from "vitest";
import { PORTAL_UPLOADS_SEARCH_MAX } from "@/contract/portal-rules";
import { parsePortalsSearch, portalsSearchParams } from "./portals-search";

describe("the queue's search in the address", () => {
  it("keeps the trimmed text, drops an empty or over-long one, and writes it back", () => {
    const parsed = parsePortalsSearch({ view: "review", q: "  Ana Lima " });
    expect(parsed.q).toBe("Ana Lima");
    expect(portalsSearchParams(parsed)).toMatchObject({ view: "review", q: "Ana Lima" });
    expect(parsePortalsSearch({ view: "review", q: "   " }).q).toBeUndefined();
    const long = "x".repeat(PORTAL_UPLOADS_SEARCH_MAX + 1);
    expect(parsePortalsSearch({ view: "review", q: long }).q).toBeUndefined();
    expect(parsePortalsSearch({ view: "review", q: 42 }).q).toBeUndefined();
  });
});
