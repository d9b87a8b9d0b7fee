import { describe, expect, it } from "vitest";
import {
  mediaKindOf,
  parseWaveform,
  thumbnailKindOf,
  timecode,
  WAVEFORM_HEADER_BYTES,
} from "./media-rules";

function waveform(pairs: number[], header: Partial<Record<"version" | "flags", number>> = {}) {
  const bytes = new ArrayBuffer(WAVEFORM_HEADER_BYTES + pairs.length);
  const view = new DataView(bytes);
  view.setInt32(0, header.version ?? 1, true);
  view.setUint32(4, header.flags ?? 1, true);
  view.setInt32(8, 48_000, true);
  view.setInt32(12, 480, true);
  view.setUint32(16, pairs.length / 2, true);
  for (const [i, value] of pairs.entries()) view.setInt8(WAVEFORM_HEADER_BYTES + i, value);
  return bytes;
}

describe("parseWaveform", () => {
  it("reads audiowaveform's 8-bit version 1 data", () => {
    const peaks = parseWaveform(waveform([-10, 12, -128, 127]));
    expect(peaks?.sampleRate).toBe(48_000);
    expect(peaks?.samplesPerPair).toBe(480);
    expect(Array.from(peaks?.pairs ?? [])).toEqual([-10, 12, -128, 127]);
  });

  it("refuses other versions, 16-bit data and short bytes", () => {
    expect(parseWaveform(waveform([1, 2], { version: 2 }))).toBeNull();
    expect(parseWaveform(waveform([1, 2], { flags: 0 }))).toBeNull();
    expect(parseWaveform(waveform([1, 2]).slice(0, WAVEFORM_HEADER_BYTES + 1))).toBeNull();
  });
});

describe("timecode", () => {
  it("writes hours, minutes, seconds and frames", () => {
    expect(timecode(0, 25)).toBe("00:00:00:00");
    expect(timecode(3_723_480, 25)).toBe("01:02:03:12");
    expect(timecode(1_000, 30)).toBe("00:00:01:00");
  });
});

describe("mediaKindOf and thumbnailKindOf", () => {
  it("name the kind of a content type, and whether the service draws a thumbnail of it", () => {
    const types = [
      "image/png",
      "image/x-exr",
      "video/mp4",
      "application/mxf",
      "video/x-r3d",
      "application/pdf",
      "audio/wav",
      "text/plain",
      null,
    ];
    expect(types.map(mediaKindOf)).toEqual([
      "image",
      "image",
      "video",
      "video",
      "video",
      "pdf",
      "audio",
      null,
      null,
    ]);
    expect(types.map(thumbnailKindOf)).toEqual([
      "image",
      null,
      "video",
      "video",
      null,
      "pdf",
      "audio",
      null,
      null,
    ]);
  });
});
