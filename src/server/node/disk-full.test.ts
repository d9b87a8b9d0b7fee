import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diskBlobs } from "@/server/testing/disk-blobs";
import { errorOf } from "@/server/testing/expect-body";
import { diskWithRoom } from "@/server/testing/full-disk";
import { type NodeTest, sha256Hex, startNodeTest } from "./node-testing";

let n: NodeTest;
beforeEach(async () => {
  n = await startNodeTest();
});
afterEach(() => n.close());

async function openUpload(bytes: Buffer) {
  const { transferSpec } = await n.createTransfer({
    direction: "send",
    paths: [{ source: "/home/ana/big.bin", destination: "Inbox/big.bin" }],
  });
  const { token } = transferSpec;
  const created = await n.create(token, {
    path: "Inbox/big.bin",
    length: bytes.length,
    sha256: sha256Hex(bytes),
  });
  expect(created.status).toBe(201);
  return { token, location: created.headers.get("location")! };
}

describe("a full disk", () => {
  it("a write that fills the disk answers 507 insufficient_storage; the staged bytes are the offset HEAD reports, and the upload resumes once there is room", async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const { token, location } = await openUpload(bytes);
    const blobs = diskBlobs(n.t.deps.files);
    blobs.writeCalls = diskWithRoom(1024 * 1024 + 123);

    const full = await n.patch(location, token, 0, bytes);
    expect(full.status).toBe(507);
    expect(full.headers.get("content-type")).toMatch(/application\/json/);
    expect((await errorOf(full)).code).toBe("insufficient_storage");

    // The node is still up: the next request is answered, from what the disk holds.
    const head = await n.head(location, token);
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get("upload-offset"));
    expect(offset).toBe(1024 * 1024 + 123);
    const staged = fs.readFileSync(blobs.stagingPath(n.uploads()[0]!.id));
    expect(staged.equals(bytes.subarray(0, offset))).toBe(true);

    // Room again: the rest goes on from that offset and the file commits whole.
    blobs.writeCalls = fs;
    const rest = await n.patch(location, token, offset, bytes.subarray(offset));
    expect(rest.status).toBe(204);
    expect(rest.headers.get("consign-file-sha256")).toBe(sha256Hex(bytes));
    const entry = n.t.deps.files.get(n.t.workspaceId, "Inbox/big.bin");
    expect(fs.readFileSync(blobs.pathOf(entry.sha256!)).equals(bytes)).toBe(true);
  });
});

describe("the free-space floor (MIN_FREE_DISK_MB)", () => {
  const staged = () => fs.readdirSync(path.dirname(n.t.deps.files.blobs.stagingPath("x")));

  it("below the floor a new upload and a PATCH are refused with 507 before any byte is written", async () => {
    const { transferSpec } = await n.createTransfer({
      direction: "send",
      paths: [{ source: "/home/ana/a.bin", destination: "Inbox" }],
    });
    const { token } = transferSpec;
    const { config } = n.t.deps;
    config.minFreeDiskBytes = Number.MAX_SAFE_INTEGER;
    const bytes = randomBytes(4096);
    const refused = await n.create(token, { path: "Inbox/a.bin", length: 4096, body: bytes });
    expect(refused.status).toBe(507);
    expect(await errorOf(refused)).toMatchObject({
      code: "insufficient_storage",
      details: { reason: "free_space_floor" },
    });
    expect(n.uploads()).toEqual([]);

    // An upload begun while there was room takes no more bytes once the disk is below the floor.
    config.minFreeDiskBytes = 0;
    const created = await n.create(token, { path: "Inbox/a.bin", length: 4096 });
    expect(created.status).toBe(201);
    const location = created.headers.get("location")!;
    config.minFreeDiskBytes = Number.MAX_SAFE_INTEGER;
    const patch = await n.patch(location, token, 0, bytes);
    expect(patch.status).toBe(507);
    expect((await errorOf(patch)).details.reason).toBe("free_space_floor");
    expect(staged()).toEqual([]);
    const head = await n.head(location, token);
    expect(head.headers.get("upload-offset")).toBe("0");

    config.minFreeDiskBytes = 1024 * 1024;
    expect((await n.patch(location, token, 0, bytes)).status).toBe(204);
  });

  it("an upload larger than the room the floor leaves is refused at its creation", async () => {
    const { transferSpec } = await n.createTransfer({
      direction: "send",
      paths: [{ source: "/home/ana/huge.bin", destination: "Inbox" }],
    });
    const { bavail, bsize } = fs.statfsSync(n.t.deps.config.dataDir);
    // A floor of a tenth of the free space: other processes freeing disk between this read and
    // the node's own (a megabyte floor let that flip the answer) cannot make room for it.
    n.t.deps.config.minFreeDiskBytes = Math.floor((bavail * bsize) / 10);
    const res = await n.create(transferSpec.token, {
      path: "Inbox/huge.bin",
      length: bavail * bsize,
    });
    expect(res.status).toBe(507);
    expect(n.uploads()).toEqual([]);
  });
});
