import { execFile } from "node:child_process";
import sharp, { type Sharp } from "sharp";
import type { MediaKind } from "@/contract/media-rules";

/*
 * How each kind of media becomes a thumbnail: a picture at most SIZE pixels on its longer side,
 * encoded by sharp as JPEG at QUALITY whatever drew it. ffmpeg, ffprobe and pdftoppm run at a
 * lower CPU priority than requests (`nice`) and are killed after TOOL_TIMEOUT_MS, so a long or
 * broken file fails quickly instead of holding a core.
 */

export const SIZE = 320;
export const QUALITY = 80;
/** The position in a video its frame is taken from: past titles and fades, cheap to seek to. */
const FRAME_AT = 0.1;
const WAVE_HEIGHT = 180;
/** The waveform's colours: a light wave on a dark ground reads in the light and dark themes. */
const WAVE_COLOUR = "0x7dd3fc";
const WAVE_GROUND = "#1e293b";
export const TOOL_TIMEOUT_MS = 15_000;
/**
 * The largest image decoded for a thumbnail, 8192 × 8192 pixels (67 MP): a 15,000 × 15,000 PNG
 * is refused from its header instead of taking seconds and a gigabyte to decode.
 */
export const THUMBNAIL_MAX_PIXELS = 8192 * 8192;

/**
 * Everything a kind's JPEG depends on besides the content: changing it starts fresh cache
 * entries. The image's is the one thumbnails had before other kinds, so those entries stay.
 */
export const SETTINGS: Record<MediaKind, string> = {
  image: `jpeg inside ${SIZE}x${SIZE} q${QUALITY}`,
  video: `video frame at ${FRAME_AT} inside ${SIZE}x${SIZE} q${QUALITY}`,
  pdf: `pdf page 1 inside ${SIZE}x${SIZE} q${QUALITY}`,
  audio: `waveform ${SIZE}x${WAVE_HEIGHT} ${WAVE_COLOUR} on ${WAVE_GROUND} q${QUALITY}`,
};

/** Why a file has no thumbnail, in words for the caller (`no_preview`). */
export class NoThumbnail extends Error {}

/** Runs a tool at a lower priority with a deadline; its standard output, or NoThumbnail. */
function tool(command: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      "nice",
      ["-n", "10", command, ...args],
      {
        encoding: "buffer",
        timeout: TOOL_TIMEOUT_MS,
        killSignal: "SIGKILL",
        maxBuffer: 32 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const reason = err.killed
          ? `${command} took longer than ${TOOL_TIMEOUT_MS / 1000} s`
          : stderr.toString().trim().split("\n").at(-1) || `${command} failed`;
        reject(new NoThumbnail(reason));
      },
    );
  });
}

const jpeg = (picture: Sharp) =>
  picture
    .resize(SIZE, SIZE, { fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: QUALITY })
    .toBuffer();

async function image(file: string): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(file)
    .metadata()
    .catch(() => {
      throw new NoThumbnail("it could not be read as an image");
    });
  if (width * height > THUMBNAIL_MAX_PIXELS)
    throw new NoThumbnail(
      `it is ${width} × ${height} pixels: thumbnails are made of images of at most ${THUMBNAIL_MAX_PIXELS.toLocaleString("en")} pixels (8192 × 8192)`,
    );
  return jpeg(sharp(file, { limitInputPixels: THUMBNAIL_MAX_PIXELS })).catch(() => {
    throw new NoThumbnail("it could not be read as an image");
  });
}

const frameAt = (file: string, seconds: number) =>
  tool("ffmpeg", [
    ...["-v", "error", "-nostdin", "-ss", seconds.toFixed(3), "-i", file],
    ...["-map", "0:v:0", "-frames:v", "1"],
    // Never enlarged, as images are not.
    ...["-vf", `scale='min(${SIZE},iw)':'min(${SIZE},ih)':force_original_aspect_ratio=decrease`],
    ...["-f", "image2pipe", "-c:v", "png", "-"],
  ]);

/** A frame a tenth of the way in (seeking before decoding: fast however long the video). */
async function video(file: string): Promise<Buffer> {
  const probe = JSON.parse(
    (
      await tool("ffprobe", [
        ...["-v", "error", "-of", "json"],
        ...["-show_entries", "format=duration:stream=codec_type", file],
      ])
    ).toString(),
  ) as { format?: { duration?: string }; streams?: { codec_type?: string }[] };
  const types = new Set(probe.streams?.map((s) => s.codec_type));
  // An MP4 or a MOV of sound only is drawn as what it is.
  if (!types.has("video")) {
    if (types.has("audio")) return audio(file);
    throw new NoThumbnail("it has no video stream");
  }
  const duration = Number(probe.format?.duration);
  const at = Number.isFinite(duration) && duration > 0 ? duration * FRAME_AT : 0;
  let png = await frameAt(file, at);
  // A seek past the last decodable frame (a cut-off file) yields nothing: take the first.
  if (png.length === 0 && at > 0) png = await frameAt(file, 0);
  if (png.length === 0) throw new NoThumbnail("no frame of it could be decoded");
  return jpeg(sharp(png));
}

async function pdf(file: string): Promise<Buffer> {
  const png = await tool("pdftoppm", [
    ...["-png", "-f", "1", "-l", "1", "-singlefile", "-scale-to", String(SIZE), file],
  ]);
  return jpeg(sharp(png).flatten({ background: "#ffffff" }));
}

async function audio(file: string): Promise<Buffer> {
  const png = await tool("ffmpeg", [
    ...["-v", "error", "-nostdin", "-i", file, "-filter_complex"],
    `[0:a:0]aformat=channel_layouts=mono,showwavespic=s=${SIZE}x${WAVE_HEIGHT}:colors=${WAVE_COLOUR}`,
    ...["-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "-"],
  ]);
  if (png.length === 0) throw new NoThumbnail("it has no sound to draw");
  return jpeg(sharp(png).flatten({ background: WAVE_GROUND }));
}

/** The thumbnail of one stored file of a kind, or NoThumbnail saying why there is none. */
export function renderThumbnail(kind: MediaKind, file: string): Promise<Buffer> {
  return { image, video, pdf, audio }[kind](file);
}
