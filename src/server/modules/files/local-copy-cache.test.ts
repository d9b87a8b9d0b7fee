import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "@/server/db/database";
import { ManualClock } from "@/server/lib/clock";
import { freshBucket } from "@/server/testing/s3";
import { DiskBlobStore } from "./blob-store";
import { addBlobRef } from "./files.repository";
import { LocalCopyCache } from "./local-copy-cache";
import { S3BlobStore } from "./s3-blob-store";

const MINUTE = 60_000;
const GRACE = 60 * MINUTE;
const T0 = Date.parse("2026-11-28T12:00:00Z");

let dir: string;
let disk: DiskBlobStore;
let now: number;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-copies-"));
  disk = new DiskBlobStore(dir);
  now = T0;
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const cache = (maxBytes: number) => new LocalCopyCache(disk.root, maxBytes, GRACE, () => now);
const name = (i: number) => i.toString(16).padStart(64, "a");

/** A copy of `size` bytes as the S3 store leaves one: under its content's path, used at `at`. */
function copy(i: number, size: number, at: number) {
  const file = disk.pathOf(name(i));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(size, i));
  fs.utimesSync(file, new Date(at), new Date(at));
  return file;
}
const kept = (...files: string[]) => files.map((f) => fs.existsSync(f));

describe("the local copies' bound", () => {
  it("removes nothing while the copies fit", async () => {
    const files = [copy(1, 400, T0 - 3 * GRACE), copy(2, 400, T0 - 2 * GRACE)];
    await cache(1000).trim();
    expect(kept(...files)).toEqual([true, true]);
  });

  it("removes the copies used longest ago until 80 % of the bound is left", async () => {
    const oldest = copy(1, 300, T0 - 5 * GRACE);
    const old = copy(2, 300, T0 - 4 * GRACE);
    const newer = copy(3, 300, T0 - 3 * GRACE);
    const newest = copy(4, 300, T0 - 2 * GRACE);
    await cache(1000).trim();
    // 1,200 bytes: 900 after the oldest, still above 800; 600 after the next.
    expect(kept(oldest, old, newer, newest)).toEqual([false, false, true, true]);
  });

  it("counts a use: a copy written first but used last stays", async () => {
    const c = cache(1000);
    const first = copy(1, 400, T0 - 5 * GRACE);
    const second = copy(2, 400, T0 - 4 * GRACE);
    now = T0 - 3 * GRACE;
    c.used(first);
    now = T0;
    copy(3, 400, T0 - 2 * GRACE);
    await c.trim();
    expect(kept(first, second)).toEqual([true, false]);
  });

  it("never removes a copy handed out within the grace, even above the bound", async () => {
    const stale = copy(1, 600, T0 - GRACE - MINUTE);
    const recent = copy(2, 600, T0 - GRACE + MINUTE);
    const fresh = copy(3, 600, T0);
    await cache(1000).trim();
    expect(kept(stale, recent, fresh)).toEqual([false, true, true]);
  });

  it("trims on its own once added copies pass the bound, and leaves temp and staging files", async () => {
    const c = cache(1000);
    const staging = disk.stagingPath("upload-1");
    fs.writeFileSync(staging, Buffer.alloc(5000));
    const temp = path.join(disk.root, "tmp", "t-1");
    fs.writeFileSync(temp, Buffer.alloc(5000));
    fs.utimesSync(staging, new Date(0), new Date(0));
    fs.utimesSync(temp, new Date(0), new Date(0));
    // The first addition learns the total (400) by a scan; the third passes the bound.
    now = T0 - 3 * GRACE;
    const first = copy(1, 400, now);
    c.added(first, 400);
    await c.trim();
    now = T0 - 2 * GRACE;
    const second = copy(2, 400, now);
    c.added(second, 400);
    expect(kept(first, second)).toEqual([true, true]);
    now = T0;
    const third = copy(3, 400, now);
    c.added(third, 400);
    await vi.waitFor(() => expect(fs.existsSync(first)).toBe(false));
    expect(kept(second, third, staging, temp)).toEqual([true, true, true, true]);
  });
});

describe("the S3 store's local copies", () => {
  it("are bounded: the copy used longest ago goes, and its next use fetches it again", async () => {
    const db = openDatabase(path.join(dir, "consign.db"));
    const clock = new ManualClock(T0);
    const store = new S3BlobStore(await freshBucket(), dir, db, clock, { localCacheBytes: 1000 });
    const contents = [randomBytes(400), randomBytes(400), randomBytes(400)];
    const names: string[] = [];
    for (const bytes of contents) {
      const staged = await store.stage(bytes);
      db.transaction(() => {
        addBlobRef(db, staged.sha256, staged.size, clock.now());
        store.commit(staged);
      })();
      names.push(staged.sha256);
    }
    const files: string[] = [];
    for (const sha256 of names) {
      files.push(await store.localPath(sha256));
      clock.advance(2 * GRACE);
    }
    await vi.waitFor(() => expect(fs.existsSync(files[0]!)).toBe(false));
    expect(kept(files[1]!, files[2]!)).toEqual([true, true]);
    expect(fs.readFileSync(await store.localPath(names[0]!)).equals(contents[0]!)).toBe(true);
    db.close();
  });
});
