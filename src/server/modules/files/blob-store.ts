import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { newId } from "@/server/lib/ids";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "@/server/lib/private-files";

export type FileContent = Uint8Array | string | Readable | AsyncIterable<Uint8Array>;

export interface StagedBlob {
  sha256: string;
  size: number;
  tempPath: string;
}

/**
 * File bytes on disk, content-addressed by SHA-256 (`blobs/ab/cd/<sha>`), so versions and
 * copies of the same content share one file. Writes go to `tmp/` first and are renamed into
 * place only when the database commits the reference (see FilesService.writeFile). Folders
 * are 0700 and files 0600 (the rename keeps the temp file's mode).
 */
export class BlobStore {
  readonly root: string;
  private readonly tmp: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, "blobs");
    this.tmp = path.join(this.root, "tmp");
    // A blobs folder made before the modes were set keeps its files, but no longer shows them.
    ensurePrivateDir(this.root);
    ensurePrivateDir(this.tmp);
  }

  pathOf(sha256: string) {
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
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
    const out = fs.createWriteStream(tempPath, { mode: PRIVATE_FILE_MODE });
    try {
      for await (const chunk of source as AsyncIterable<Uint8Array> | Uint8Array[]) {
        hash.update(chunk);
        size += chunk.byteLength;
        if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
      }
      await new Promise<void>((resolve, reject) =>
        out.end((err?: Error | null) => (err ? reject(err) : resolve())),
      );
    } catch (err) {
      out.destroy();
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
    const target = this.pathOf(staged.sha256);
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

  remove(sha256: string) {
    fs.rmSync(this.pathOf(sha256), { force: true });
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
