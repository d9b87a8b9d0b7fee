import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type Db, openDatabase } from "@/server/db/database";
import { ManualClock } from "@/server/lib/clock";
import { freshBucket } from "@/server/testing/s3";
import { HOLD_MS, S3BlobStore } from "./s3-blob-store";

// What only the bucket has: holds (blob-store-contract.test.ts runs what both stores share).
let dir: string;
let db: Db;
let clock: ManualClock;
let store: S3BlobStore;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-s3-"));
  db = openDatabase(path.join(dir, "consign.db"));
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  store = new S3BlobStore(await freshBucket(), dir, db, clock);
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

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
  const staged = await store.local.stage(Buffer.from("only on the local disk"));
  expect(() => store.commit(staged)).toThrow(/without being persisted/);
});
