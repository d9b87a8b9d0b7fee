import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { validationFailed } from "@/server/lib/api-error";
import { writePrivateFile } from "@/server/lib/private-files";

const SIZE = 320;
const QUALITY = 80;
/** Everything the JPEG depends on besides the image: changing it starts fresh cache entries. */
const SETTINGS = `jpeg inside ${SIZE}x${SIZE} q${QUALITY}`;
/**
 * The largest image decoded for a thumbnail, 8192 × 8192 pixels (67 MP): a 15,000 × 15,000 PNG
 * is refused from its header instead of taking seconds and a gigabyte to decode.
 */
export const THUMBNAIL_MAX_PIXELS = 8192 * 8192;

/**
 * A JPEG at most 320 pixels on its longer side of a stored image, cached on disk under
 * `DATA_DIR/cache/thumbnails` by the blob's SHA-256 and the render settings: a share's page asks
 * anonymously for the same images again and again, and decoding a large PNG takes a quarter of
 * a second. An image too large or not decodable is 400 `no_preview` on `query.path`.
 */
export async function thumbnailJpeg(
  dataDir: string,
  blob: { sha256: string; path: string },
  name: string,
): Promise<Buffer> {
  const key = createHash("sha256").update(`${blob.sha256}\n${SETTINGS}`).digest("hex");
  const file = path.join(dataDir, "cache", "thumbnails", key.slice(0, 2), `${key}.jpg`);
  const cached = await fs.promises.readFile(file).catch(() => null);
  if (cached) return cached;
  const jpeg = await render(blob.path, name);
  // Written whole, then renamed into place: a reader never meets half a file.
  const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
  writePrivateFile(partial, jpeg);
  fs.renameSync(partial, file);
  return jpeg;
}

async function render(blobPath: string, name: string) {
  const unreadable = () =>
    validationFailed("query.path", `"${name}" could not be read as an image`, "no_preview");
  const { width = 0, height = 0 } = await sharp(blobPath)
    .metadata()
    .catch(() => {
      throw unreadable();
    });
  if (width * height > THUMBNAIL_MAX_PIXELS)
    throw validationFailed(
      "query.path",
      `"${name}" is ${width} × ${height} pixels: thumbnails are made of images of at most ${THUMBNAIL_MAX_PIXELS.toLocaleString("en")} pixels (8192 × 8192)`,
      "no_preview",
    );
  return sharp(blobPath, { limitInputPixels: THUMBNAIL_MAX_PIXELS })
    .resize(SIZE, SIZE, { fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: QUALITY })
    .toBuffer()
    .catch(() => {
      throw unreadable();
    });
}
