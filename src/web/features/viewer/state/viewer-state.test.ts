import { describe, expect, it } from "vitest";
import { mimeFromName } from "@/browser/media-type";
import { mediaKindOf } from "@/contract/media-rules";
import { clampTime, stepFrame, timeAtPointer } from "./media-time";
import { isBrowserPlayable } from "./media-types";
import { tileAt } from "./sheet-tile";
import { columnPeaks } from "./waveform-columns";
import { fitView, MAX_ZOOM, panBy, zoomAt } from "./zoom";

describe("columnPeaks", () => {
  const pairs = Int8Array.from([-10, 10, -50, 20, -5, 90, -1, 1]);
  it("keeps the lowest min and highest max of the pairs under each column", () => {
    const { min, max } = columnPeaks({ pairs }, 2);
    expect([...min]).toEqual([-50, -5]);
    expect([...max]).toEqual([20, 90]);
  });
  it("repeats pairs when wider than the data, and draws nothing without data", () => {
    const { min, max } = columnPeaks({ pairs }, 8);
    expect(min.length).toBe(8);
    expect([min[0], max[0], min[1], max[1], min[7], max[7]]).toEqual([-10, 10, -10, 10, -1, 1]);
    expect(columnPeaks({ pairs: new Int8Array(0) }, 4).max.every((v) => v === 0)).toBe(true);
  });
});

describe("tileAt", () => {
  const layout = {
    columns: 3,
    rows: 2,
    tileWidth: 160,
    tileHeight: 90,
    tileCount: 5,
    intervalMs: 1000,
  };
  it("finds the tile of a time left to right, top to bottom", () => {
    expect(tileAt(layout, 0)).toEqual({ index: 0, x: -0, y: -0 });
    expect(tileAt(layout, 3500)).toEqual({ index: 3, x: -0, y: -90 });
    expect(tileAt(layout, 4999)).toEqual({ index: 4, x: -160, y: -90 });
  });
  it("stops at the last tile and the first", () => {
    expect(tileAt(layout, 99_000).index).toBe(4);
    expect(tileAt(layout, -5).index).toBe(0);
  });
});

describe("media time", () => {
  it("steps one frame on the frame grid, within the media", () => {
    expect(stepFrame(1, 25, 1, 10)).toBeCloseTo(1.04);
    expect(stepFrame(1.013, 25, -1, 10)).toBeCloseTo(0.96);
    expect(stepFrame(0, 25, -1, 10)).toBe(0);
    expect(stepFrame(10, 25, 1, 10)).toBe(10);
  });
  it("reads the time under the pointer on the bar", () => {
    expect(timeAtPointer(150, { left: 100, width: 200 }, 8)).toBe(2);
    expect(timeAtPointer(50, { left: 100, width: 200 }, 8)).toBe(0);
    expect(timeAtPointer(900, { left: 100, width: 200 }, 8)).toBe(8);
    expect(clampTime(-1, 5)).toBe(0);
  });
});

describe("zoom", () => {
  it("keeps the point under the pointer, and centres again at fit", () => {
    const zoomed = zoomAt(fitView, 2, 100, 0);
    expect(zoomed).toEqual({ zoom: 2, x: -100, y: 0 });
    expect(zoomAt(zoomed, 0.5)).toEqual(fitView);
    expect(zoomAt(fitView, 100).zoom).toBe(MAX_ZOOM);
  });
  it("pans only when zoomed in", () => {
    expect(panBy(fitView, 10, 10)).toBe(fitView);
    expect(panBy({ zoom: 2, x: 0, y: 0 }, 10, -5)).toEqual({ zoom: 2, x: 10, y: -5 });
  });
});

describe("media kind", () => {
  it("names the kind and whether the browser plays the original", () => {
    expect(mediaKindOf("video/quicktime")).toBe("video");
    expect(mediaKindOf("application/pdf")).toBe("pdf");
    expect(mediaKindOf("text/plain")).toBeNull();
    expect(isBrowserPlayable("video/mp4")).toBe(true);
    expect(isBrowserPlayable("video/quicktime")).toBe(false);
    expect(mimeFromName("Shots/a.Clip.MP4")).toBe("video/mp4");
    expect(mimeFromName("notes.txt")).toBeNull();
  });
});
