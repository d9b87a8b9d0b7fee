import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diskWithRoom } from "@/server/testing/full-disk";
import { type NodeTest, sha256Hex, startNodeTest } from "./node-testing";

let n: NodeTest;
beforeEach(async () => {
  n = await startNodeTest();
});
afterEach(() => n.close());

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; details: Record<string, unknown> } }).error;

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
    const { blobs } = n.t.deps.files;
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
