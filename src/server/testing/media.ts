import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/*
 * Tiny media made by the tests themselves with ffmpeg (no binary fixtures): keep them short and
 * small so tests stay fast on two cores.
 */

/** A 160x90 H.264/AAC clip of `seconds` (a test pattern and a tone), as an MP4's bytes. */
export function makeClip(dir: string, seconds = 2, name = "clip.mp4"): Buffer {
  const out = path.join(fs.mkdtempSync(path.join(dir, "media-")), name);
  execFileSync("ffmpeg", [
    ...["-v", "error", "-f", "lavfi", "-i", `testsrc=size=160x90:rate=25:duration=${seconds}`],
    ...["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"],
    ...["-shortest", "-movflags", "+faststart", out],
  ]);
  return fs.readFileSync(out);
}
