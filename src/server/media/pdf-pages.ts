import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { runTool } from "./tool";

const WIDTH = 1600;
export const PAGE_SETTINGS = `jpeg q80 ${WIDTH}w`;

/**
 * PDF pages (0-based) as JPEGs 1600 pixels wide, by pdftoppm in one run over the range asked
 * for, into `dir`. Returns each page's file and size.
 */
export async function renderPages(source: string, dir: string, first: number, last: number) {
  await runTool(
    "pdftoppm",
    [
      ...["-jpeg", "-jpegopt", "quality=80", "-scale-to-x", String(WIDTH), "-scale-to-y", "-1"],
      ...["-f", String(first + 1), "-l", String(last + 1), source, path.join(dir, "page")],
    ],
    { input: source, timeoutMs: 10 * 60_000 },
  );
  const pages = new Map<number, { file: string; width: number; height: number }>();
  for (const name of fs.readdirSync(dir)) {
    const n = /^page-0*(\d+)\.jpg$/.exec(name)?.[1];
    if (!n) continue;
    const file = path.join(dir, name);
    const { width = 0, height = 0 } = await sharp(file).metadata();
    pages.set(Number(n) - 1, { file, width, height });
  }
  return pages;
}
