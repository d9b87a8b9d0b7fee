import { probe, videoStreamOf } from "./probe";
import { RenderError, readProgress, runTool } from "./tool";

/** Everything the proxy's bytes depend on: a change here renders every proxy anew. */
export const PROXY720_SETTINGS = "mp4 h264-high crf23 veryfast <=720p source-fps aac128k faststart";

/**
 * The ffmpeg arguments of the 720p proxy: H.264 High (yuv420p, so every browser plays it), at
 * most 720 lines (never upscaled; even sizes, as 4:2:0 needs), the source's frame rate (no `-r`),
 * the first audio stream as stereo AAC, and the index at the front (`+faststart`) so a browser
 * plays and seeks it over Range reads before it has all of it. The bench runs plain ffmpeg with
 * these same arguments.
 */
export const proxy720Args = (source: string, out: string) => [
  ...["-hide_banner", "-v", "error", "-nostdin", "-y", "-i", source],
  ...["-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn"],
  ...["-vf", "scale=-2:'min(720,trunc(ih/2)*2)'", "-pix_fmt", "yuv420p"],
  ...["-c:v", "libx264", "-profile:v", "high", "-preset", "veryfast", "-crf", "23"],
  ...["-c:a", "aac", "-b:a", "128k", "-ac", "2"],
  ...["-movflags", "+faststart", "-f", "mp4", out],
];

export interface RenderedVideo {
  width: number | null;
  height: number | null;
  durationMs: number | null;
}

/** Renders the proxy into `out`, reporting progress (0 to 1) as ffmpeg encodes. */
export async function renderProxy720(
  source: string,
  out: string,
  durationMs: number | null,
  onProgress: (fraction: number) => void,
): Promise<RenderedVideo> {
  await runTool("ffmpeg", ["-progress", "pipe:1", ...proxy720Args(source, out)], {
    input: source,
    stdout: (stdout) => readProgress(stdout, durationMs, onProgress),
  });
  const made = await probe(out);
  const video = videoStreamOf(made);
  if (!video) throw new RenderError("ffmpeg wrote no video stream");
  const seconds = Number(made?.format?.duration);
  return {
    width: video.width ?? null,
    height: video.height ?? null,
    durationMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : durationMs,
  };
}
