import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { newId } from "@/server/lib/ids";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "@/server/lib/private-files";

export type FileContent = Uint8Array | string | Readable | AsyncIterable<Uint8Array>;

/** Bytes written and hashed, waiting for the transaction that references them. */
export interface StagedBlob {
  /** SHA-256 of the content (the plaintext's, for content written encrypted). */
  sha256: string;
  size: number;
  tempPath: string;
  /**
   * The stored name when it is not `sha256`: encrypted content (content protection) is stored
   * under `<sha256>.<iv>`, beside any plain copy of the same content, never in its place.
   */
  name?: string;
  /**
   * Until when the store holds the content against deletion (the S3 store, after `persist`):
   * `commit` refuses a blob whose hold ran out.
   */
  heldUntil?: number;
  /**
   * The bytes are already in the bucket under this key (an upload assembled from S3 multipart
   * parts): `persist` copies them to their content key server-side instead of sending `tempPath`.
   */
  sourceKey?: string;
}

/** An inclusive byte range, as HTTP Range counts it. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file bytes live. The file tree references blobs by name (the content's SHA-256, or a
 * variant of it for encrypted content); the data node and the files service use only these
 * operations, so a store other than the disk (an S3-compatible one) can replace it.
 * Reference counts stay in the database (`blobs`), keyed by SHA-256: a blob's variants go when
 * its count reaches zero (`remove`).
 */
export interface BlobStore {
  /** Puts a stream: staged (written, hashed and persisted), then `commit` or `discard`. */
  stage(content: FileContent): Promise<StagedBlob>;
  /**
   * Makes bytes staged by another writer (the node's staging file) durable before the
   * transaction that references them, which `commit` cannot wait for: the S3 store writes the
   * object here; the disk has nothing to do until `commit` renames the file.
   */
  persist(staged: StagedBlob): Promise<StagedBlob>;
  /**
   * A staging file path for a writer that appends to it itself over many requests (the node's
   * resumable uploads); it is handed to `commit` as a StagedBlob's `tempPath`.
   */
  stagingPath(id: string): string;
  /** A writer that appends to an upload's staging file (created with the first bytes). */
  appendStaging(id: string): Writable;
  /** The bytes the store can still take, or null when it has no such bound. */
  freeBytes(): Promise<number | null>;
  /** The ids that have a staging file (for the sweep of abandoned uploads). */
  stagingIds(): string[];
  /** Makes a staged blob stored, under its name; idempotent for identical content. */
  commit(staged: StagedBlob): void;
  discard(staged: StagedBlob): void;
  /** Reads a range of a stored blob (all of it without one). */
  read(name: string, range?: ByteRange): Readable;
  /** A local file with a stored blob's bytes, for tools that read files (ffmpeg, sharp, poppler). */
  localPath(name: string): Promise<string>;
  /** The stored size, or null when there is no such blob. */
  stat(name: string): Promise<{ size: number } | null>;
  /**
   * Deletes a blob whose references are gone, with its encrypted variants: the disk at once; the
   * S3 store records the deletion for `deleteDue` (it runs inside the collecting transaction).
   */
  remove(sha256: string): void;
  /** Carries out the deletions `remove` deferred that are due; returns how many contents went. */
  deleteDue(): Promise<number>;
  /** Temp files older than `olderThanMs` left by a process that died mid-write. */
  sweepTemp(olderThanMs: number, now: number): void;
}

/** The calls a file write stream makes (`fs.createWriteStream`'s `fs` option). */
export type WriteCalls = Pick<typeof fs, "open" | "write" | "writev" | "close">;

/**
 * File bytes on disk, content-addressed by SHA-256 (`blobs/ab/cd/<sha>`), so versions and
 * copies of the same content share one file. Writes go to `tmp/` first and are renamed into
 * place only when the database commits the reference (see FilesService.commitStaged); uploads in
 * progress live in `staging/` (one file per upload, kept as long as the upload may resume, so
 * the temp sweep leaves them to the node's own cleanup). Folders are 0700 and files 0600 (the
 * rename keeps the temp file's mode).
 */
export class DiskBlobStore implements BlobStore {
  readonly root: string;
  private readonly tmp: string;
  private readonly staging: string;
  /** What staging writes call: the disk's own; a test gives calls that fail as a full disk does. */
  writeCalls: WriteCalls = fs;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, "blobs");
    this.tmp = path.join(this.root, "tmp");
    this.staging = path.join(this.root, "staging");
    // A blobs folder made before the modes were set keeps its files, but no longer shows them.
    ensurePrivateDir(this.root);
    ensurePrivateDir(this.tmp);
    ensurePrivateDir(this.staging);
  }

  /** The file of a stored blob; `name` is a SHA-256 or an encrypted variant of one. */
  pathOf(name: string) {
    return path.join(this.root, name.slice(0, 2), name.slice(2, 4), name);
  }

  stagingPath(id: string) {
    return path.join(this.staging, id);
  }

  appendStaging(id: string) {
    return fs.createWriteStream(this.stagingPath(id), {
      flags: "a",
      mode: PRIVATE_FILE_MODE,
      // Chunks queued while one write is on the disk leave together (writev), not one by one.
      highWaterMark: 1024 * 1024,
      fs: this.writeCalls,
    });
  }

  async freeBytes() {
    const { bavail, bsize } = await fs.promises.statfs(this.staging);
    return bavail * bsize;
  }

  stagingIds() {
    return fs.readdirSync(this.staging);
  }

  /** The bytes are in `tmp/` already; `commit` moves them. */
  async persist(staged: StagedBlob) {
    return staged;
  }

  async localPath(name: string) {
    return this.pathOf(name);
  }

  async deleteDue() {
    return 0;
  }

  /** Streams content to a temp file, hashing as it goes. */
  async stage(content: FileContent): Promise<StagedBlob> {
    const tempPath = path.join(this.tmp, `${newId()}.part`);
    const hash = createHash("sha256");
    let size = 0;
    const source =
      typeof content === "string" || content instanceof Uint8Array
        ? [typeof content === "string" ? Buffer.from(content) : content]
        : content;
    try {
      // A pipeline: a write that fails (a full disk) rejects here instead of ending the process.
      await pipeline(
        async function* () {
          for await (const chunk of source as AsyncIterable<Uint8Array> | Uint8Array[]) {
            hash.update(chunk);
            size += chunk.byteLength;
            yield chunk;
          }
        },
        fs.createWriteStream(tempPath, { mode: PRIVATE_FILE_MODE, fs: this.writeCalls }),
      );
    } catch (err) {
      fs.rmSync(tempPath, { force: true });
      throw err;
    }
    return { sha256: hash.digest("hex"), size, tempPath };
  }

  /**
   * Moves a staged blob into place unless the content is already stored. Called inside the
   * write transaction that adds the reference, so a concurrent purge (which also holds the
   * write lock) cannot remove the file between the check and the reference.
   */
  commit(staged: StagedBlob) {
    const target = this.pathOf(staged.name ?? staged.sha256);
    if (fs.existsSync(target)) {
      fs.rmSync(staged.tempPath, { force: true });
      return;
    }
    ensurePrivateDir(path.dirname(target));
    fs.renameSync(staged.tempPath, target);
  }

  discard(staged: StagedBlob) {
    fs.rmSync(staged.tempPath, { force: true });
  }

  read(name: string, range?: ByteRange): Readable {
    return fs.createReadStream(this.pathOf(name), {
      ...(range ? { start: range.start, end: range.end } : {}),
      highWaterMark: 1024 * 1024,
    });
  }

  async stat(name: string) {
    const s = await fs.promises.stat(this.pathOf(name)).catch(() => null);
    return s ? { size: s.size } : null;
  }

  remove(sha256: string) {
    const file = this.pathOf(sha256);
    fs.rmSync(file, { force: true });
    const dir = path.dirname(file);
    const names = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    for (const name of names)
      if (name.startsWith(`${sha256}.`)) fs.rmSync(path.join(dir, name), { force: true });
  }

  /** Temp files left by a process that died mid-write. */
  sweepTemp(olderThanMs: number, now: number) {
    for (const name of fs.readdirSync(this.tmp)) {
      const file = path.join(this.tmp, name);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (stat && now - stat.mtimeMs > olderThanMs) fs.rmSync(file, { force: true });
    }
  }
}
