import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A file ffmpeg writes from `args` (its inputs, usually lavfi test sources, and codecs), named
 * `name` so the container follows the extension: real media for ffprobe and the players.
 */
export function ffmpegFile(name: string, args: string[]): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-e2e-media-"));
  const file = path.join(dir, name);
  try {
    execFileSync("ffmpeg", ["-v", "error", ...args, file]);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
