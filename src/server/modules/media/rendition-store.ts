import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type { ProxyKind } from "@/contract/media-rules";
import type { AppDeps } from "@/server/deps";
import type { ByteRange } from "@/server/modules/files/blob-store";
import { S3BlobStore } from "@/server/modules/files/s3-blob-store";

/** What names a rendition's bytes: its content and everything the bytes depend on. */
export interface RenditionRef {
  id: string;
  sha256: string;
  kind: ProxyKind;
  page: number;
  settings: string;
}

const EXTENSIONS: Record<ProxyKind, string> = {
  proxy720: "mp4",
  waveform: "dat",
  contact_sheet: "jpg",
  page: "jpg",
};

/**
 * Where a rendition is rendered, and on the disk profile kept:
 * DATA_DIR/cache/renditions/<2>/<id>.<ext>.
 */
export const renditionFile = (dataDir: string, r: { id: string; kind: ProxyKind }) =>
  path.join(dataDir, "cache", "renditions", r.id.slice(0, 2), `${r.id}.${EXTENSIONS[r.kind]}`);

/**
 * A rendition's key in the bucket, from its content and parameters alone (not the row's id), so
 * any process on the bucket finds it: `renditions/<sha256>/<kind>-<page>-<settings digest>.<ext>`.
 * The settings string is digested: it may hold any character, and a new one is a new key.
 */
export const renditionKey = (r: Omit<RenditionRef, "id">) =>
  `renditions/${r.sha256}/${r.kind}-${r.page}-${createHash("sha256").update(r.settings).digest("hex").slice(0, 16)}.${EXTENSIONS[r.kind]}`;

/**
 * Where renditions' bytes are kept: under DATA_DIR (the disk profile, as before) or in the
 * bucket of the S3 blob store (every process serves what any rendered). Either way they are
 * rendered into the local file first (`renditionFile`), which `keep` then takes.
 */
export interface RenditionStore {
  /** Takes the rendered local file as the rendition's bytes; returns their size. */
  keep(r: RenditionRef, file: string): Promise<number>;
  read(r: RenditionRef, range?: ByteRange): Readable;
  /** The stored size when the row lacks it (rows made before sizes were kept: disk only). */
  sizeOf(r: RenditionRef): number;
  remove(r: RenditionRef): Promise<void>;
}

function diskStore(dataDir: string): RenditionStore {
  return {
    async keep(r, file) {
      const final = renditionFile(dataDir, r);
      if (file !== final) fs.renameSync(file, final);
      return fs.statSync(final).size;
    },
    read: (r, range) => fs.createReadStream(renditionFile(dataDir, r), range ?? {}),
    sizeOf: (r) => fs.statSync(renditionFile(dataDir, r)).size,
    async remove(r) {
      fs.rmSync(renditionFile(dataDir, r), { force: true });
    },
  };
}

function bucketStore(blobs: S3BlobStore): RenditionStore {
  return {
    async keep(r, file) {
      const { size } = fs.statSync(file);
      try {
        await blobs.putFile(renditionKey(r), file);
      } finally {
        fs.rmSync(file, { force: true });
      }
      return size;
    },
    read: (r, range) => blobs.readObject(renditionKey(r), range),
    sizeOf: () => {
      throw new Error("a rendition in the bucket is ready only with its size");
    },
    remove: (r) => blobs.deleteObject(renditionKey(r)),
  };
}

/** The store of the service's profile: the bucket when the blobs are in one. */
export const renditionStore = (deps: Pick<AppDeps, "config" | "files">): RenditionStore =>
  deps.files.blobs instanceof S3BlobStore
    ? bucketStore(deps.files.blobs)
    : diskStore(deps.config.dataDir);
