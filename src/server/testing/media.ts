import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import PDFDocument from "pdfkit";
import sharp from "sharp";

/*
 * Small media made on the spot for tests, journeys and benchmarks (no binary fixtures): ffmpeg's
 * test sources, pdfkit and sharp. Kept tiny (a couple of seconds, 320 × 180 at most) so tests
 * stay fast on two cores.
 */

function ffmpeg(args: string[], ext: string): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-media-"));
  const out = path.join(dir, `out${ext}`);
  try {
    execFileSync("ffmpeg", ["-v", "error", "-nostdin", ...args, out]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An H.264 MP4 of ffmpeg's test pattern (`testsrc`, `smptebars`, …), silent. */
export const videoClip = (o: { seconds?: number; size?: string; pattern?: string } = {}) =>
  ffmpeg(
    [
      ...["-f", "lavfi", "-i", `${o.pattern ?? "testsrc"}=size=${o.size ?? "160x90"}:rate=10`],
      ...["-t", String(o.seconds ?? 1), "-pix_fmt", "yuv420p", "-c:v", "libx264"],
      ...["-preset", "ultrafast"],
    ],
    ".mp4",
  );

/** A mono WAV of a sine tone at `hz`. */
export const audioClip = (o: { seconds?: number; hz?: number } = {}) =>
  ffmpeg(
    ["-f", "lavfi", "-i", `sine=frequency=${o.hz ?? 440}:duration=${o.seconds ?? 1}`, "-ac", "1"],
    ".wav",
  );

/** A PDF of one page per text given, each page saying it. */
export function pdfPages(texts: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: [320, 240], autoFirstPage: false });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    for (const text of texts) doc.addPage().fontSize(28).text(text);
    doc.end();
  });
}

/** A flat-coloured image in a format sharp writes (`png`, `jpeg`, `webp`). */
export const flatImage = (
  width: number,
  height: number,
  colour = "#336699",
  format: "png" | "jpeg" | "webp" = "png",
) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
