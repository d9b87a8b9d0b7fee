import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import PDFDocument from "pdfkit";

/*
 * Tiny media made by the tests themselves (no binary fixtures): clips and sound by ffmpeg's
 * generators, PDFs by pdfkit. Kept small (160x90, a few seconds) so tests stay fast on 2 cores.
 */

const run = promisify(execFile);

async function ffmpegOut(args: string[], ext: string): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-media-"));
  const out = path.join(dir, `out${ext}`);
  try {
    await run("ffmpeg", ["-v", "error", "-nostdin", "-y", ...args, out]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface ClipOptions {
  seconds?: number;
  size?: string;
  rate?: number;
  /** A sine tone beside the picture (default true). */
  audio?: boolean;
  /** `testsrc2`, `smptebars`, … */
  pattern?: string;
}

/** An H.264 MP4 of a test pattern, with a tone unless `audio: false`. */
export function makeClip(o: ClipOptions = {}): Promise<Buffer> {
  const { seconds = 2, size = "160x90", rate = 25, audio = true, pattern = "testsrc2" } = o;
  return ffmpegOut(
    [
      ...["-f", "lavfi", "-i", `${pattern}=size=${size}:rate=${rate}:duration=${seconds}`],
      ...(audio ? ["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`] : []),
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", String(rate)],
      ...(audio ? ["-c:a", "aac", "-shortest"] : []),
    ],
    ".mp4",
  );
}

/** A WAV of a sine tone. */
export const makeTone = (seconds = 2) =>
  ffmpegOut(["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`, "-ac", "1"], ".wav");

/** A PDF of `pages` pages, each saying its number. */
export function makePdf(pages = 3): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A6" });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    for (let i = 1; i <= pages; i++) {
      if (i > 1) doc.addPage();
      doc.fontSize(40).text(`Page ${i}`);
    }
    doc.end();
  });
}
