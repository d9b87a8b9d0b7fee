import { describe, expect, it } from "vitest";
import { csvField } from "@/contract/rules";
import { manifestCsv, manifestFileName } from "./manifest-export";

describe("manifest CSV", () => {
  it("quotes every text field, doubling quotes", () => {
    expect(csvField("plain.txt")).toBe('"plain.txt"');
    expect(csvField("a;=1+2;x.txt")).toBe('"a;=1+2;x.txt"');
    expect(csvField("a,b.txt")).toBe('"a,b.txt"');
    expect(csvField('say "hi".txt')).toBe('"say ""hi"".txt"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
    expect(csvField(null)).toBe("");
    expect(csvField(42)).toBe("42");
  });

  it("makes text a spreadsheet would run as a formula start with a quote", () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("+1.txt")).toBe(`"'+1.txt"`);
    expect(csvField("-2.txt")).toBe(`"'-2.txt"`);
    expect(csvField("@SUM(A1).txt")).toBe(`"'@SUM(A1).txt"`);
    expect(csvField("\tcmd")).toBe(`"'\tcmd"`);
    expect(csvField("\rcmd")).toBe('"\'\rcmd"');
    expect(csvField("a=b+c-d@e")).toBe('"a=b+c-d@e"');
    expect(csvField(-1)).toBe("-1");
    const csv = manifestCsv({
      files: [{ path: "=cmd|' /C calc'!A0", size: 1, modifiedAt: null, sha256: null }],
    });
    expect(csv.split("\r\n")[1]).toBe(`"'=cmd|' /C calc'!A0",1,,`);
  });

  it("writes a header and one CRLF-ended line per file", () => {
    const csv = manifestCsv({
      files: [
        { path: "a,1.txt", size: 3, modifiedAt: "2026-01-01T00:00:00.000Z", sha256: "ab" },
        { path: "b.txt", size: 0, modifiedAt: null, sha256: null },
      ],
    });
    expect(csv).toBe(
      'path,size,modifiedAt,sha256\r\n"a,1.txt",3,"2026-01-01T00:00:00.000Z","ab"\r\n"b.txt",0,,\r\n',
    );
  });

  it("names the download after the folder", () => {
    expect(manifestFileName("Projects/Cut: v2", "csv")).toBe("Cut_ v2 manifest.csv");
    expect(manifestFileName("", "json")).toBe("workspace manifest.json");
  });
});
