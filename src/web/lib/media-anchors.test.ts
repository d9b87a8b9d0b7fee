import { describe, expect, it } from "vitest";
import { anchorFromPosition, anchorLabel, viewerRequestAt } from "./media-anchors";

const clip = (timeMs: number) => ({ path: "Cut/a.mov", timeMs, page: null });

describe("time-coded notes", () => {
  it("read as a timecode at the file's rate, a clock without one, or a page counted from 1", () => {
    expect(anchorLabel(clip(62_200), 25)).toBe("00:01:02:05");
    expect(anchorLabel(clip(3_723_450))).toBe("01:02:03.4");
    expect(anchorLabel({ timeMs: null, page: 0 })).toBe("page 1");
  });

  it("open the viewer at the note with that file's notes as markers", () => {
    const notes = [
      { id: "1", body: "Flash", anchor: clip(1000) },
      { id: "2", body: "x".repeat(100), anchor: clip(2000) },
      { id: "3", body: "Other file", anchor: { path: "Cut/b.pdf", timeMs: null, page: 2 } },
      { id: "4", body: "Nowhere", anchor: null },
    ];
    const request = viewerRequestAt("w1", clip(2000), notes, 1234);
    expect(request.target).toEqual({ workspaceId: "w1", path: "Cut/a.mov", sizeBytes: 1234 });
    expect(request.at).toEqual({ timeMs: 2000 });
    expect(request.markers.map((m) => [m.id, m.timeMs, m.label.length])).toEqual([
      ["1", 1000, 5],
      ["2", 2000, 80],
    ]);
    expect(viewerRequestAt("w1", notes[2]!.anchor!, notes).at).toEqual({ page: 2 });
  });

  it("attach where the viewer is only for a file the note may point into", () => {
    const at = { workspaceId: "w1", path: "Cut/a.mov", timeMs: 1234.6, page: null };
    expect(anchorFromPosition(at, "w1", (p) => p === "Cut/a.mov")).toEqual(clip(1235));
    expect(anchorFromPosition(at, "w1", (p) => p === "Cut/other.mov")).toBeNull();
    expect(anchorFromPosition(at, "w2", (p) => p === "Cut/a.mov")).toBeNull();
    expect(anchorFromPosition(null, "w1", (p) => p === "Cut/a.mov")).toBeNull();
    const pdf = { workspaceId: "w1", path: "b.pdf", timeMs: null, page: 4 };
    expect(anchorFromPosition(pdf, "w1", (p) => p === "b.pdf")).toEqual({
      path: "b.pdf",
      timeMs: null,
      page: 4,
    });
  });
});
