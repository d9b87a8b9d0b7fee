import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, expect, it } from "vitest";
import { diskWithRoom } from "@/server/testing/full-disk";
import { DiskBlobStore } from "./blob-store";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

it("a stage that fills the disk rejects with ENOSPC and leaves no temp file behind", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-blobs-"));
  dirs.push(dir);
  const blobs = new DiskBlobStore(dir);
  blobs.writeCalls = diskWithRoom(1024 * 1024);
  const chunks = Array.from({ length: 8 }, () => Buffer.alloc(512 * 1024, 7));
  await expect(blobs.stage(Readable.from(chunks))).rejects.toMatchObject({ code: "ENOSPC" });
  expect(fs.readdirSync(path.join(dir, "blobs", "tmp"))).toEqual([]);
  // Room again: the next write goes through.
  blobs.writeCalls = fs;
  expect((await blobs.stage(Readable.from(chunks))).size).toBe(4 * 1024 * 1024);
});
