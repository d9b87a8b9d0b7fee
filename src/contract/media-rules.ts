/**
 * Media rules the service, the console and the public pages share (no zod here, so a page can
 * import them without the schema library).
 */
import { thumbnailMimeTypes } from "./rules";

export const mediaKinds = ["video", "audio", "image", "pdf"] as const;
export type MediaKind = (typeof mediaKinds)[number];

export const proxyKinds = ["proxy720", "waveform", "contact_sheet", "page"] as const;
export type ProxyKind = (typeof proxyKinds)[number];

export const proxyStatuses = ["pending", "queued", "rendering", "ready", "failed"] as const;
export type ProxyStatusValue = (typeof proxyStatuses)[number];

/** The last PDF page a `page` proxy exists for (pages 0 to 50). */
export const MAX_PROXY_PAGE = 50;
/** At most this many paths, and this many versions, in one render request. */
export const MAX_PROXY_RENDER_ITEMS = 50;

/**
 * The waveform proxy's bytes are the BBC audiowaveform binary format, version 1, 8-bit
 * (https://github.com/bbc/audiowaveform/blob/master/doc/DataFormat.md): a 20-byte header of
 * little-endian 32-bit integers (version = 1, flags = 1 for 8-bit, sample rate, samples per
 * pair, pair count), then `pair count` pairs of signed bytes (min, max) for a mono mix. At most
 * `WAVEFORM_MAX_PAIRS` pairs, so a client draws it at any width by taking the min and max of
 * the pairs under each pixel.
 */
export const WAVEFORM_HEADER_BYTES = 20;
export const WAVEFORM_MAX_PAIRS = 8000;

export interface WaveformPeaks {
  sampleRate: number;
  samplesPerPair: number;
  /** min, max, min, max, … in -128 to 127. */
  pairs: Int8Array;
}

/** Reads the waveform proxy's bytes; null when they are not that format. */
export function parseWaveform(bytes: ArrayBuffer): WaveformPeaks | null {
  if (bytes.byteLength < WAVEFORM_HEADER_BYTES) return null;
  const view = new DataView(bytes);
  const version = view.getInt32(0, true);
  const flags = view.getUint32(4, true);
  const sampleRate = view.getInt32(8, true);
  const samplesPerPair = view.getInt32(12, true);
  const length = view.getUint32(16, true);
  if (version !== 1 || (flags & 1) !== 1 || sampleRate <= 0 || samplesPerPair <= 0) return null;
  if (bytes.byteLength < WAVEFORM_HEADER_BYTES + length * 2) return null;
  return {
    sampleRate,
    samplesPerPair,
    pairs: new Int8Array(bytes, WAVEFORM_HEADER_BYTES, length * 2),
  };
}

/** A time in milliseconds as `HH:MM:SS:FF` at a frame rate (non-drop), for the viewer. */
export function timecode(ms: number, fps: number): string {
  const rate = Math.max(1, Math.round(fps));
  const totalFrames = Math.floor((Math.max(0, ms) / 1000) * fps + 1e-6);
  const frames = totalFrames % rate;
  const seconds = Math.floor(totalFrames / rate);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}:${two(frames)}`;
}

/** Camera raw clips ffmpeg does not decode: video, but no frame to show. */
const UNDECODED_VIDEO = ["video/x-r3d", "video/x-braw"];

/** The kind of media a content type is; null for anything else (text, archives, …). */
export function mediaKindOf(mime: string | null | undefined): MediaKind | null {
  if (!mime) return null;
  if (mime === "application/pdf") return "pdf";
  if (mime.startsWith("audio/")) return "audio";
  // MXF has no video type of its own in the MIME tables.
  if (mime.startsWith("video/") || mime === "application/mxf") return "video";
  if (mime.startsWith("image/")) return "image";
  return null;
}

/**
 * The kind of thumbnail `GET W/files/preview` makes of a content type (a picture of an image, a
 * frame of a video, a PDF's first page, an audio file's waveform); null: it answers `no_preview`.
 */
export function thumbnailKindOf(mime: string | null | undefined): MediaKind | null {
  const kind = mediaKindOf(mime);
  if (kind === "image" && !thumbnailMimeTypes.includes(mime!)) return null;
  if (kind === "video" && UNDECODED_VIDEO.includes(mime!)) return null;
  return kind;
}
