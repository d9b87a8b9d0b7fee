import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/server/lib/clock";
import { hashSecret } from "@/server/lib/secrets";
import { transfersRouter } from "@/server/modules/transfers/transfers.index";
import { errorOf } from "@/server/testing/expect-body";
import { type NodeTest, sha256Hex, startNodeTest } from "./node-testing";

const NODE_SECRET = "a node's secret, long enough to guess never";
let n: NodeTest;
beforeEach(async () => {
  n = await startNodeTest({
    clock: new ManualClock(Date.now()),
    config: { nodeSecretHashes: [hashSecret(NODE_SECRET)] },
  });
});
afterEach(() => n.close());

/**
 * An upload whose bytes a node has staged in full (as a standalone node leaves them on the shared
 * store), not yet committed.
 */
async function staged(bytes: Buffer) {
  const { transferSpec, transferId } = await n.createTransfer({
    direction: "send",
    paths: [{ source: "/local/a.mov", destination: "a.mov" }],
    destinationRoot: "Projects/Shoot",
  });
  const created = await n.create(transferSpec.token, {
    path: "Projects/Shoot/a.mov",
    length: bytes.length,
    sha256: sha256Hex(bytes),
  });
  expect(created.status).toBe(201);
  const uploadId = created.headers.get("location")!.split("/").pop()!;
  fs.writeFileSync(n.t.deps.files.blobs.stagingPath(uploadId), bytes);
  return { transferId, uploadId };
}

const commit = (uploadId: string, body: object, secret = NODE_SECRET) =>
  n.t.app.request(`/internal/v1/uploads/${uploadId}/commit`, {
    method: "POST",
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

const count = (sql: string, ...args: unknown[]) =>
  n.t.deps.db
    .prepare(sql)
    .pluck()
    .get(...args) as number;

describe("the node's commit call", () => {
  it("commits once: a replayed commit answers the first result and makes no second file or version", async () => {
    const bytes = Buffer.from("the whole clip");
    const { uploadId, transferId } = await staged(bytes);
    const sha256 = sha256Hex(bytes);
    const first = await commit(uploadId, { size: bytes.length, sha256 });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ uploadId, sha256, committed: true });
    const again = await commit(uploadId, { size: bytes.length, sha256 });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ uploadId, sha256, committed: false });
    expect(count("SELECT count(*) FROM entries WHERE path = ?", "Projects/Shoot/a.mov")).toBe(1);
    expect(count("SELECT count(*) FROM file_versions")).toBe(0);
    expect(count("SELECT files_committed FROM transfers WHERE id = ?", transferId)).toBe(1);
    expect(count("SELECT count(*) FROM usage_records WHERE transfer_id = ?", transferId)).toBe(1);
  });

  it("refuses a commit for a cancelled transfer, and commits nothing", async () => {
    const bytes = Buffer.from("too late");
    const { uploadId, transferId } = await staged(bytes);
    const api = n.t.client(transfersRouter).workspaces[":workspaceId"].transfers;
    const cancelled = await api[":transferId"].$patch({
      param: { ...n.t.ws, transferId },
      json: { status: "cancelled", bytesDone: 0, filesDone: 0 },
    });
    expect(cancelled.status).toBe(200);
    const res = await commit(uploadId, { size: bytes.length, sha256: sha256Hex(bytes) });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({
      code: "expired_token",
      details: { reason: "transfer_ended" },
    });
    expect(count("SELECT count(*) FROM entries WHERE path = ?", "Projects/Shoot/a.mov")).toBe(0);
  });

  it("refuses a size or SHA-256 that is not the upload's", async () => {
    const bytes = Buffer.from("twelve bytes");
    const { uploadId } = await staged(bytes);
    const wrongSize = await commit(uploadId, { size: 3, sha256: sha256Hex(bytes) });
    expect(wrongSize.status).toBe(409);
    const wrongHash = await commit(uploadId, { size: bytes.length, sha256: sha256Hex("other") });
    expect(wrongHash.status).toBe(409);
    expect(count("SELECT count(*) FROM entries WHERE path = ?", "Projects/Shoot/a.mov")).toBe(0);
  });

  it("answers only a node with a secret the service knows", async () => {
    const bytes = Buffer.from("x");
    const { uploadId } = await staged(bytes);
    const res = await commit(uploadId, { size: 1, sha256: sha256Hex(bytes) }, "guess");
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe("unauthenticated");
  });
});
