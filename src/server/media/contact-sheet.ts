import type { ContactSheetLayout } from "@/contract/media";
import { RenderError, runTool } from "./tool";

const TILE_WIDTH = 160;
const MAX_TILES = 100;
const COLUMNS = 10;
export const CONTACT_SHEET_SETTINGS = `jpeg q5 ${TILE_WIDTH}w ${COLUMNS}cols <=${MAX_TILES}tiles keyframes`;

/**
 * Where the tiles go: one a second, or fewer and further apart so that there are at most 100
 * (a whole number of seconds between them), ten to a row, each 160 pixels wide and as tall as
 * the picture's shape makes it (even).
 */
export function sheetLayout(durationMs: number, width: number, height: number): ContactSheetLayout {
  const intervalMs = Math.max(1000, Math.ceil(durationMs / MAX_TILES / 1000) * 1000);
  const tileCount = Math.max(1, Math.min(MAX_TILES, Math.ceil(durationMs / intervalMs)));
  const columns = Math.min(COLUMNS, tileCount);
  const tileHeight = Math.max(2, Math.round((TILE_WIDTH * height) / width / 2) * 2);
  return {
    columns,
    rows: Math.ceil(tileCount / columns),
    tileWidth: TILE_WIDTH,
    tileHeight,
    tileCount,
    intervalMs,
  };
}

/**
 * One JPEG of every tile in one ffmpeg pass. Only key frames are read and decoded (`-discard:v
 * nokey` drops the rest in the demuxer, `-skip_frame nokey` in the decoder): a tile shows the key
 * frame at or before its time, so a minute of 1080p costs a few dozen frame decodes instead of
 * 1,500; a clip with sparse key frames repeats a tile until the next one. Each key frame is
 * scaled once, before `fps` repeats it into the tiles it fills, and one decoder thread does: for
 * a few dozen frames, threads cost more to start than they save (bench:media, same JPEG).
 */
export async function renderContactSheet(
  source: string,
  out: string,
  media: { durationMs: number | null; width: number | null; height: number | null },
) {
  if (!media.durationMs || !media.width || !media.height)
    throw new RenderError("the video's duration or picture size could not be read");
  const layout = sheetLayout(media.durationMs, media.width, media.height);
  const filter = [
    `scale=${layout.tileWidth}:${layout.tileHeight}`,
    // `eof_action=pass`: a clip shorter than one interval still gives its one tile.
    `fps=1000/${layout.intervalMs}:round=down:eof_action=pass`,
    `tile=${layout.columns}x${layout.rows}`,
  ].join(",");
  await runTool(
    "ffmpeg",
    [
      ...["-hide_banner", "-v", "error", "-nostdin", "-y", "-threads", "1"],
      ...["-skip_frame", "nokey", "-discard:v", "nokey", "-i", source, "-map", "0:v:0", "-an"],
      ...["-vf", filter, "-frames:v", "1"],
      ...["-q:v", "5", "-f", "image2", "-c:v", "mjpeg", out],
    ],
    { input: source },
  );
  return {
    layout,
    width: layout.columns * layout.tileWidth,
    height: layout.rows * layout.tileHeight,
  };
}
