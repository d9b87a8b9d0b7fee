import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { MediaKind } from "@/contract/media-rules";
import { validationFailed } from "@/server/lib/api-error";
import { writePrivateFile } from "@/server/lib/private-files";
import { Semaphore } from "@/server/lib/semaphore";
import type { BlobStore } from "./blob-store";
import { S3BlobStore } from "./s3-blob-store";
import { NoThumbnail, renderThumbnail, SETTINGS } from "./thumbnail-render";

export { THUMBNAIL_MAX_PIXELS } from "./thumbnail-render";

/** Renders at once: a grid of 200 new tiles queues here rather than starting 200 ffmpegs. */
const RENDERS_AT_ONCE = 2;
/** Failures remembered (a broken file is not decoded again on every visit), newest kept. */
const FAILURES_KEPT = 1000;

const gate = new Semaphore(RENDERS_AT_ONCE);
/** Renders under way by cache key: a second request for the same content waits for the first. */
const underWay = new Map<string, Promise<Buffer>>();
const failures = new Map<string, string>();
let renders = 0;

/**
 * How many thumbnails this process has rendered (rather than read from the cache): tests and
 * `bench/media-thumbs.ts` read it to show a copy, a move or a restored version renders nothing.
 */
export const thumbnailRenderCount = () => renders;

/** The cache key of a content's thumbnail: its SHA-256 and the kind's render settings. */
const cacheKey = (sha256: string, kind: MediaKind) =>
  createHash("sha256").update(`${sha256}\n${SETTINGS[kind]}`).digest("hex");

/** The thumbnail's strong validator: the same content and settings always make the same JPEG. */
export const thumbnailEtag = (sha256: string, kind: MediaKind) =>
  `"${cacheKey(sha256, kind).slice(0, 32)}"`;

/**
 * A JPEG at most 320 pixels on its longer side of a stored image, video (a frame), PDF (its
 * first page) or audio file (its waveform), cached on disk under `DATA_DIR/cache/thumbnails` by
 * the blob's SHA-256 and the render settings: whatever path the content has, or had, it is
 * rendered once. With the blobs in a bucket it is kept there too (`thumbnails/<key>.jpg`), so
 * it is rendered once for every process. A file without one is 400 `no_preview` on `query.path`.
 */
export async function thumbnailJpeg(
  dataDir: string,
  blobs: Pick<BlobStore, "localPath">,
  sha256: string,
  name: string,
  kind: MediaKind = "image",
): Promise<Buffer> {
  const key = cacheKey(sha256, kind);
  const file = path.join(dataDir, "cache", "thumbnails", key.slice(0, 2), `${key}.jpg`);
  const cached = await fs.promises.readFile(file).catch(() => null);
  if (cached) return cached;
  const failed = failures.get(key);
  if (failed !== undefined) throw noPreview(name, failed);
  let render = underWay.get(key);
  if (!render) {
    const bucket = blobs instanceof S3BlobStore ? blobs : null;
    render = gate.run(async () => {
      // In the bucket, any process's render serves every process; the local file is a cache.
      const shared = await bucket
        ?.readObject(`thumbnails/${key}.jpg`)
        .toArray()
        .catch(() => null);
      if (shared) return keepLocal(Buffer.concat(shared), file);
      const jpeg = await renderOnce(key, kind, () => blobs.localPath(sha256), file);
      await bucket?.putFile(`thumbnails/${key}.jpg`, file);
      return jpeg;
    });
    underWay.set(key, render);
    void render.then(
      () => underWay.delete(key),
      () => underWay.delete(key),
    );
  }
  return render.catch((err: unknown) => {
    throw err instanceof NoThumbnail ? noPreview(name, err.message) : err;
  });
}

const noPreview = (name: string, why: string) =>
  validationFailed("query.path", `"${name}" has no thumbnail: ${why}`, "no_preview");

/** `source` is asked for only on a cache miss: a bucket's blob is then fetched to a local copy. */
async function renderOnce(
  key: string,
  kind: MediaKind,
  source: () => Promise<string>,
  file: string,
) {
  renders++;
  let jpeg: Buffer;
  try {
    jpeg = await renderThumbnail(kind, await source());
  } catch (err) {
    const why = err instanceof NoThumbnail ? err.message : `it could not be read as ${kind}`;
    failures.set(key, why);
    if (failures.size > FAILURES_KEPT) failures.delete(failures.keys().next().value!);
    throw new NoThumbnail(why);
  }
  return keepLocal(jpeg, file);
}

/** Written whole, then renamed into place: a reader never meets half a file. */
function keepLocal(jpeg: Buffer, file: string) {
  const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
  writePrivateFile(partial, jpeg);
  fs.renameSync(partial, file);
  return jpeg;
}
