import fs from "node:fs";
import path from "node:path";

/** Below the bound by this much after a trim, so that the next copy does not start another. */
const LOW_WATER = 0.8;
/** The blob folders under the root (`ab/cd/<name>`); `tmp` and `staging` are not the cache's. */
const SHARD = /^[0-9a-f]{2}$/;

interface Copy {
  file: string;
  size: number;
  usedAt: number;
}

/**
 * The S3 store's local copies (the files that ffmpeg, pdftoppm, sharp and the probes read), kept
 * under DATA_DIR/blobs by content and bounded to `maxBytes`: past it, the copies used longest ago
 * go until 80 % of the bound is left. A copy's mtime is its last use. A path handed out within
 * `graceMs` is never removed, so a tool given it still finds the file when it opens it later (an
 * open file survives its removal on POSIX, so a long render keeps reading). A removed copy is
 * only fetched again on its next use.
 *
 * The running total is learnt by one scan, the first time a copy is added, and kept from then
 * on. Processes sharing a data dir count only their own additions between scans, so each trims
 * at its own bound, and the disk holds at most the bound plus what the others added since.
 */
export class LocalCopyCache {
  private bytes: number | null = null;
  private trimming: Promise<void> | null = null;

  constructor(
    private readonly root: string,
    private readonly maxBytes: number,
    private readonly graceMs: number,
    private readonly now: () => number,
  ) {}

  /** Marks the copy used now, so it goes last. */
  used(file: string) {
    const at = new Date(this.now());
    fs.utimesSync(file, at, at);
  }

  /** Counts a new copy; a trim starts in the background once the bound is passed. */
  added(file: string, size: number) {
    this.used(file);
    if (this.bytes !== null) this.bytes += size;
    if (this.bytes === null || this.bytes > this.maxBytes) void this.trim();
  }

  /** One trim at a time; a call during one waits for it. */
  trim(): Promise<void> {
    this.trimming ??= this.trimOnce().finally(() => {
      this.trimming = null;
    });
    return this.trimming;
  }

  private async trimOnce() {
    const copies = await this.scan();
    let total = copies.reduce((sum, c) => sum + c.size, 0);
    if (total > this.maxBytes) {
      const floor = this.maxBytes * LOW_WATER;
      const usedBefore = this.now() - this.graceMs;
      copies.sort((a, b) => a.usedAt - b.usedAt);
      for (const copy of copies) {
        if (total <= floor || copy.usedAt > usedBefore) break;
        await fs.promises.rm(copy.file, { force: true });
        total -= copy.size;
      }
    }
    this.bytes = total;
  }

  /** Every copy under the root, with its size and last use. */
  private async scan(): Promise<Copy[]> {
    const copies: Copy[] = [];
    const dirs = async (dir: string) =>
      (await fs.promises.readdir(dir).catch(() => [] as string[])).filter((d) => SHARD.test(d));
    for (const a of await dirs(this.root)) {
      for (const b of await dirs(path.join(this.root, a))) {
        const dir = path.join(this.root, a, b);
        for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
          const file = path.join(dir, name);
          const stat = await fs.promises.stat(file).catch(() => null);
          if (stat?.isFile()) copies.push({ file, size: stat.size, usedAt: stat.mtimeMs });
        }
      }
    }
    return copies;
  }
}
