import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "@/server/db/database";
import { ManualClock } from "@/server/lib/clock";
import { freshBucket } from "@/server/testing/s3";
import { type BlobStore, DiskBlobStore, type StagedBlob } from "./blob-store";
import { addBlobRef, dropBlobRef } from "./files.repository";
import { HOLD_MS, S3BlobStore } from "./s3-blob-store";
import { collectBlobs } from "./trash.service";

/** Each store, over a fresh data dir and database (and, for S3, a fresh bucket). */
const stores: [string, (dir: string, db: Db, clock: ManualClock) => Promise<BlobStore>][] = [
  ["disk", async (dir) => new DiskBlobStore(dir)],
  ["s3", async (dir, db, clock) => new S3BlobStore(await freshBucket(), dir, db, clock)],
];

const sha256Hex = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

async function bytesOf(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.each(stores)("the %s blob store", (kind, make) => {
  let dir: string;
  let db: Db;
  let clock: ManualClock;
  let store: BlobStore;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-blobs-"));
    db = openDatabase(path.join(dir, "consign.db"));
    clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
    store = await make(dir, db, clock);
  });
  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What FilesService.commitStaged does: the reference and the commit in one transaction. */
  const reference = (staged: StagedBlob) =>
    db
      .transaction(() => {
        addBlobRef(db, staged.sha256, staged.size, clock.now());
        store.commit(staged);
      })
      .immediate();

  /** The purge, once the stages' holds have run out: references dropped, deletions carried out. */
  async function release(sha256: string) {
    clock.advance(HOLD_MS + 1);
    dropBlobRef(db, sha256);
    collectBlobs(db, store);
    await store.deleteDue();
  }

  it("stores staged content under its SHA-256; identical content staged and committed again changes nothing", async () => {
    const bytes = Buffer.from("the same bytes twice");
    const first = await store.stage(bytes);
    expect(first).toMatchObject({ sha256: sha256Hex(bytes), size: bytes.length });
    reference(first);
    const second = await store.stage(
      Readable.from([Buffer.from("the same "), Buffer.from("bytes twice")]),
    );
    expect(second.sha256).toBe(first.sha256);
    reference(second);
    expect(fs.existsSync(first.tempPath) || fs.existsSync(second.tempPath)).toBe(false);
    expect(await store.stat(first.sha256)).toEqual({ size: bytes.length });
    expect((await bytesOf(store.read(first.sha256))).equals(bytes)).toBe(true);
    expect(fs.readFileSync(await store.localPath(first.sha256)).equals(bytes)).toBe(true);
  });

  it("reads ranges: the first byte, a middle span and the last byte", async () => {
    const bytes = randomBytes(10_000);
    const staged = await store.stage(bytes);
    reference(staged);
    const range = async (start: number, end: number) =>
      bytesOf(store.read(staged.sha256, { start, end }));
    // Not 0-0: s3rver reads a range that ends at byte 0 as open-ended (docs/scale-out.md).
    expect((await range(0, 1)).equals(bytes.subarray(0, 2))).toBe(true);
    expect((await range(1234, 5678)).equals(bytes.subarray(1234, 5679))).toBe(true);
    expect((await range(9999, 9999)).equals(bytes.subarray(9999))).toBe(true);
  });

  it("knows nothing of content never stored: stat is null and a read fails as a missing file", async () => {
    const absent = sha256Hex(Buffer.from("never stored"));
    expect(await store.stat(absent)).toBeNull();
    await expect(bytesOf(store.read(absent))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("keeps nothing of discarded content once its hold has run out", async () => {
    const staged = await store.stage(Buffer.from("changed my mind"));
    store.discard(staged);
    expect(fs.existsSync(staged.tempPath)).toBe(false);
    clock.advance(HOLD_MS + 1);
    await store.deleteDue();
    expect(await store.stat(staged.sha256)).toBeNull();
  });

  it("removes released content with its encrypted variants", async () => {
    const staged = await store.stage(Buffer.from("secret, then plain"));
    const variant = await store.persist({ ...staged, name: `${staged.sha256}.00ff00ff` });
    reference(variant);
    const plain = await store.stage(Buffer.from("secret, then plain"));
    reference(plain);
    expect(await store.stat(`${staged.sha256}.00ff00ff`)).not.toBeNull();
    dropBlobRef(db, staged.sha256);
    await release(staged.sha256);
    expect(await store.stat(staged.sha256)).toBeNull();
    expect(await store.stat(`${staged.sha256}.00ff00ff`)).toBeNull();
  });

  it("keeps content a purge released while another request staged it again, once that request references it", async () => {
    const bytes = Buffer.from("deleted and uploaded again at once");
    reference(await store.stage(bytes));
    // Long after (the first stage's hold is over) a purge releases the content; before its
    // deletion runs, an upload of the same bytes is staged (and, on S3, its object written),
    // then the deletion runs, then the upload commits.
    clock.advance(HOLD_MS + 1);
    dropBlobRef(db, sha256Hex(bytes));
    collectBlobs(db, store);
    const again = await store.stage(bytes);
    await store.deleteDue();
    reference(again);
    clock.advance(HOLD_MS + 1);
    await store.deleteDue();
    expect((await bytesOf(store.read(again.sha256))).equals(bytes)).toBe(true);
  });

  it("stores a big blob in parts and reads a range across a part boundary", async () => {
    const bytes = randomBytes(20 * 1024 * 1024);
    const staged = await store.stage(Readable.from(chunksOf(bytes, 1024 * 1024)));
    reference(staged);
    expect(staged.sha256).toBe(sha256Hex(bytes));
    expect(sha256Hex(await bytesOf(store.read(staged.sha256)))).toBe(staged.sha256);
    const across = { start: 8 * 1024 * 1024 - 10, end: 8 * 1024 * 1024 + 10 };
    const got = await bytesOf(store.read(staged.sha256, across));
    expect(got.equals(bytes.subarray(across.start, across.end + 1))).toBe(true);
  });

  // What only the bucket has: holds, which a commit must come within.
  if (kind === "s3") {
    it("refuses to commit content whose hold ran out, and deletes it as garbage once discarded", async () => {
      const staged = await store.stage(Buffer.from("committed too late"));
      clock.advance(HOLD_MS);
      expect(() => store.commit(staged)).toThrow(/held too long/);
      store.discard(staged);
      expect(await store.stat(staged.sha256)).toEqual({ size: 18 });
      expect(await store.deleteDue()).toBe(1);
      expect(await store.stat(staged.sha256)).toBeNull();
    });

    it("refuses to commit bytes that were never persisted to the bucket", async () => {
      const { heldUntil: _, ...bare } = await store.stage(Buffer.from("not persisted"));
      expect(() => store.commit(bare)).toThrow(/without being persisted/);
    });
  }
});

function* chunksOf(bytes: Buffer, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
