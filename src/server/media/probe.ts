import { execFile } from "node:child_process";
import { promisify } from "node:util";
import mime from "mime";
import { extensionOf } from "@/contract/portal-rules";
import { baseName } from "@/contract/rules";

/*
 * What ffprobe (and poppler's pdfinfo) read of stored bytes: the portal review's media line and
 * spec check, and the media renditions' plan (which proxies a file gets, its frame rate and
 * duration), share this one reader.
 */

const run = promisify(execFile);
const PROBE_TIMEOUT_MS = 60_000;

/** Media ffprobe reads whose MIME type does not say video (`.mxf` is application/mxf). */
const MEDIA_EXTENSIONS = new Set([
  "mxf",
  "mkv",
  "mov",
  "mp4",
  "m4v",
  "avi",
  "webm",
  "mts",
  "m2ts",
  "ts",
  "mpg",
  "mpeg",
]);

export interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  /** `num/den`, e.g. `25/1`, `30000/1001`. */
  avg_frame_rate?: string;
  r_frame_rate?: string;
  /** Set for a still picture carried as a video stream (cover art). */
  disposition?: { attached_pic?: number };
}

export interface Probe {
  format?: { format_name?: string; duration?: string; tags?: { major_brand?: string } };
  streams?: ProbeStream[];
}

/** Video by type or extension. */
export const isMedia = (path: string) => {
  const type = mime.getType(baseName(path)) ?? "";
  return type.startsWith("video/") || MEDIA_EXTENSIONS.has(extensionOf(baseName(path)));
};

/** Audio or video by type or extension. */
export const isAudioVisual = (path: string) =>
  isMedia(path) || (mime.getType(baseName(path)) ?? "").startsWith("audio/");

/** ffprobe's reading of a file; null when it cannot read it as media. */
export async function probe(file: string): Promise<Probe | null> {
  try {
    const { stdout } = await run(
      "ffprobe",
      ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file],
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 },
    );
    return JSON.parse(stdout) as Probe;
  } catch {
    return null;
  }
}

/** The picture stream of a probe (not cover art), if any. */
export const videoStreamOf = (p: Probe | null) =>
  p?.streams?.find((s) => s.codec_type === "video" && !s.disposition?.attached_pic);

/** `30000/1001` → 29.97; null for none or `0/0`. */
export function frameRateOf(stream: ProbeStream | undefined): number | null {
  for (const rate of [stream?.avg_frame_rate, stream?.r_frame_rate]) {
    const [num, den] = (rate ?? "").split("/").map(Number);
    if (num && den && Number.isFinite(num / den)) return Math.round((num / den) * 1000) / 1000;
  }
  return null;
}

/** A PDF's page count by pdfinfo; null when poppler cannot read it. */
export async function pdfPageCount(file: string): Promise<number | null> {
  try {
    const { stdout } = await run("pdfinfo", [file], { timeout: PROBE_TIMEOUT_MS });
    const pages = /^Pages:\s+(\d+)/m.exec(stdout)?.[1];
    return pages ? Number(pages) : null;
  } catch {
    return null;
  }
}
