import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import PDFDocument from "pdfkit";
import sharp from "sharp";
import type { AppDeps } from "@/server/deps";

const run = promisify(execFile);
const HOUR = 3_600_000;
const ROOT = "Projects/Northlight Feature";
const FFMPEG = "/usr/bin/ffmpeg";

function pdf(title: string, lines: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 56, info: { Title: title } });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.fontSize(20).text(title).moveDown();
    doc.fontSize(11);
    for (const line of lines) doc.text(line).moveDown(0.4);
    doc.end();
  });
}

function frame(n: number): Promise<Buffer> {
  const hue = (n * 9) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180">
    <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="hsl(${hue},55%,18%)"/>
    <stop offset="1" stop-color="hsl(${(hue + 40) % 360},65%,52%)"/></linearGradient></defs>
    <rect width="320" height="180" fill="url(#g)"/>
    <circle cx="${40 + n * 10}" cy="${120 - n * 2}" r="18" fill="#f5e6b8" opacity="0.9"/>
    <text x="12" y="168" font-family="monospace" font-size="14" fill="#ffffff">NL_010_0010  ${1000 + n}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
}

/** Renders a short clip with ffmpeg's test sources; null (with a warning) when ffmpeg is missing. */
async function ffmpeg(deps: AppDeps, args: string[], ext: string): Promise<Buffer | null> {
  if (!fs.existsSync(FFMPEG)) {
    deps.log.warn("demo content: ffmpeg not found, skipping video and audio", { ffmpeg: FFMPEG });
    return null;
  }
  const out = path.join(os.tmpdir(), `consign-demo-${process.pid}-${Date.now()}${ext}`);
  try {
    await run(FFMPEG, [
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      ...args,
      "-fflags",
      "+bitexact",
      out,
    ]);
    return await fs.promises.readFile(out);
  } catch (err) {
    deps.log.warn("demo content: ffmpeg failed, skipping a file", { err });
    return null;
  } finally {
    fs.rmSync(out, { force: true });
  }
}

/** Two seconds of a generated 320x180 test pattern (`testsrc`, `smptebars`) as H.264. */
const videoClip = (deps: AppDeps, pattern: string) =>
  ffmpeg(
    deps,
    [
      ...["-f", "lavfi", "-i", `${pattern}=size=320x180:rate=24:duration=2`],
      ...["-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast"],
    ],
    ".mp4",
  );

const shotList = (rev: number) =>
  [
    "shot,description,frames,status",
    "NL_010_0010,Harbour at dawn; fog lifts off the water,24,final",
    `NL_010_0020,Lighthouse keeper climbs the stairs,${48 + rev * 8},${rev >= 3 ? "final" : "in progress"}`,
    `NL_010_0030,Beam sweeps across the bay,${rev >= 2 ? 96 : 72},${rev >= 2 ? "review" : "blocking"}`,
    ...(rev >= 3 ? ["NL_020_0010,Storm front over the ridge,120,blocking"] : []),
  ].join("\n");

/**
 * A small film delivery project so a fresh console shows something real: an image sequence,
 * clips, audio, PDFs and documents, a few files with earlier versions, and a few trashed items.
 * Skipped when the workspace already has content (the job may run again after a crash).
 */
export async function createDemoContent(deps: AppDeps, workspaceId: string) {
  const { files, clock } = deps;
  if (files.get(workspaceId, "").folder_count + files.get(workspaceId, "").file_count > 0) return;
  const started = Date.now();
  const now = clock.now();
  const put = (p: string, content: Buffer | string, hoursAgo: number) =>
    files.writeFile(workspaceId, `${ROOT}/${p}`, content, { modifiedAt: now - hoursAgo * HOUR });

  const [frames, clipA, clipB, audio] = await Promise.all([
    Promise.all(Array.from({ length: 24 }, (_, i) => frame(i + 1))),
    videoClip(deps, "testsrc"),
    videoClip(deps, "smptebars"),
    ffmpeg(
      deps,
      ["-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-ac", "2", "-ar", "48000"],
      ".wav",
    ),
  ]);

  for (const [i, png] of frames.entries()) {
    await put(`Plates/NL_010_0010/NL_010_0010_plate_v001.${1001 + i}.png`, png, 72);
  }
  if (clipA) await put("Editorial/NL_reel_v003.mp4", clipA, 20);
  if (clipB) await put("Editorial/NL_bars_tone_v001.mp4", clipB, 50);
  if (audio) await put("Sound/NL_temp_mix_v002.wav", audio, 30);

  for (const rev of [1, 2, 3]) await put("Documents/shot_list.csv", shotList(rev), 96 - rev * 24);
  for (const rev of [1, 2]) {
    const specs = await pdf(`Northlight: delivery specifications (rev ${rev})`, [
      "Picture: 1920x1080, 24 fps, ProRes 4444 XQ, Rec.709 / sRGB proxies.",
      "Plates: 16-bit PNG or EXR sequences, one folder per shot, frame numbers from 1001.",
      `Sound: 48 kHz 24-bit WAV, stems ${rev === 1 ? "to follow" : "dialogue, music, effects"}.`,
      "Checksums: SHA-256 manifest per delivery folder.",
    ]);
    await put("Documents/Delivery specifications.pdf", specs, 80 - rev * 30);
  }
  await put(
    "Documents/Call sheet - Day 12.pdf",
    await pdf("Call sheet: day 12", [
      "Location: North Harbour lighthouse",
      "Crew call 05:30, sunrise 06:12",
    ]),
    60,
  );
  await put(
    "README.txt",
    "Northlight Feature: delivery workspace.\nPlates, editorial, sound and documents for the vendor handover.\n",
    100,
  );
  await put("Documents/colour notes.md", "# Colour\n\n- Keep the dawn plates cool.\n", 40);
  await put(
    "Documents/colour notes.md",
    "# Colour\n\n- Keep the dawn plates cool.\n- Warm the beam by a quarter stop.\n",
    10,
  );
  await put("Documents/draft notes.txt", "first pass, superseded by colour notes\n", 90);
  await put("Plates/NL_010_0010/old_proxy/NL_010_0010_proxy.1001.png", frames[0]!, 80);
  files.createFolder(workspaceId, "Deliveries/Vendor handover");

  files.remove(workspaceId, [`${ROOT}/Documents/draft notes.txt`], false);
  files.remove(workspaceId, [`${ROOT}/Plates/NL_010_0010/old_proxy`], false);
  deps.log.info("demo content created", { workspaceId, ms: Date.now() - started });
}
