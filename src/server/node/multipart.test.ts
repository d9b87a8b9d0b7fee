import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { CompleteMultipartUploadCommand, GetObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it, vi } from "vitest";
import { CONTENT_PASSWORD_HEADER } from "@/contract/transfers";
import { s3Client } from "@/server/modules/files/s3-blob-store";
import { objectSize } from "@/server/testing/s3";
import type { MultipartState } from "./multipart";
import { LEASE_MS } from "./multipart-writer";
import { nodeOnS3EachTest, sha256B64, sha256Hex, startSecondNode } from "./node-testing";

// tus on S3 multipart (docs/scale-out.md, Uploads on S3), against s3rver: parts in the bucket,
// their state on the upload's row, resumable on another node, one writer at a time.
const MiB = 1024 * 1024;
const s3n = nodeOnS3EachTest();

const s3 = () => s3Client(s3n.bucket);
const contentKey = (sha: string) => `blobs/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`;

const objectAt = (key: string) => objectSize(s3n.bucket, key);

const row = (id: string) =>
  s3n.n.t.deps.db.prepare("SELECT * FROM transfer_uploads WHERE id = ?").get(id) as {
    status: string;
    offset: number;
    multipart: string | null;
  };
const stateOf = (id: string) => JSON.parse(row(id).multipart!) as MultipartState;

/** A send and one upload created on it; the location's id and a URL for any node. */
async function begin(bytes: Buffer, path = "Inbox/big.bin") {
  const send = await s3n.n.createTransfer({
    direction: "send",
    paths: [{ source: "/local/big.bin", destination: path }],
  });
  const token = send.transferSpec.token;
  const created = await s3n.n.create(token, {
    path,
    length: bytes.length,
    sha256: sha256Hex(bytes),
  });
  expect(created.status).toBe(201);
  const id = created.headers.get("location")!.split("/").pop()!;
  return { token, id, at: (base: string) => `${base}/uploads/${id}` };
}

/** Completing the recorded parts must fail once they were aborted (no parts left behind). */
async function completes(s: MultipartState) {
  return s3()
    .send(
      new CompleteMultipartUploadCommand({
        Bucket: s3n.bucket.bucket,
        Key: s.key,
        UploadId: s.s3UploadId!,
        MultipartUpload: { Parts: s.parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) },
      }),
    )
    .then(
      () => true,
      () => false,
    );
}

describe("tus uploads on S3 multipart", () => {
  it("sends PATCHes to the bucket as parts recorded on the upload's row, and commits the right SHA-256 once", async () => {
    const bytes = randomBytes(20 * MiB + 1234);
    const sha = sha256Hex(bytes);
    const u = await begin(bytes);
    const first = bytes.subarray(0, 3 * MiB);
    expect((await s3n.n.patch(u.at(s3n.n.base), u.token, 0, first)).status).toBe(204);
    // Below a part: held on the node's disk, nothing in the bucket yet.
    expect(stateOf(u.id)).toMatchObject({ s3UploadId: null, parts: [], tail: { bytes: 3 * MiB } });

    const second = bytes.subarray(3 * MiB, 9 * MiB);
    const refused = await s3n.n.patch(u.at(s3n.n.base), u.token, 3 * MiB, second, {
      "Upload-Checksum": `sha256 ${sha256B64("not these bytes")}`,
    });
    expect(refused.status).toBe(460);
    expect((await s3n.n.head(u.at(s3n.n.base), u.token)).headers.get("upload-offset")).toBe(
      String(3 * MiB),
    );
    const kept = await s3n.n.patch(u.at(s3n.n.base), u.token, 3 * MiB, second, {
      "Upload-Checksum": `sha256 ${sha256B64(second)}`,
    });
    expect(kept.status).toBe(204);
    const mid = stateOf(u.id);
    expect(mid.parts.map((p) => p.size)).toEqual([8 * MiB]);
    expect(mid.tail?.bytes).toBe(1 * MiB);
    expect(row(u.id).offset).toBe(9 * MiB);

    const last = await s3n.n.patch(u.at(s3n.n.base), u.token, 9 * MiB, bytes.subarray(9 * MiB));
    expect(last.status).toBe(204);
    expect(last.headers.get("consign-file-sha256")).toBe(sha);
    expect(await objectAt(contentKey(sha))).toBe(bytes.length);
    const stored = await s3().send(
      new GetObjectCommand({ Bucket: s3n.bucket.bucket, Key: contentKey(sha) }),
    );
    expect(sha256Hex(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(sha);
    // The assembled object was copied to its content key and let go; nothing stays on disk.
    expect(await objectAt(`uploads/${u.id}`)).toBeNull();
    expect(row(u.id)).toMatchObject({ status: "committed", multipart: null });
    expect(s3n.n.t.deps.files.blobs.stagingIds()).toEqual([]);
  });

  it("a second node on the same database resumes from the parts' end, refuses a PATCH while the first holds the upload, takes it over once its lease lapses, and the file commits once", async () => {
    const bytes = randomBytes(12 * MiB + 77);
    const sha = sha256Hex(bytes);
    const u = await begin(bytes);
    const other = await startSecondNode(s3n.n.t);
    try {
      // The first node gets 9 MiB, then its client stalls: the node holds the upload.
      let stall!: ReadableStreamDefaultController<Uint8Array>;
      const stalled = new ReadableStream<Uint8Array>({
        start(c) {
          stall = c;
          c.enqueue(new Uint8Array(bytes.subarray(0, 9 * MiB)));
        },
      });
      const firstPatch = s3n.n.patch(u.at(s3n.n.base), u.token, 0, stalled).catch(() => null);
      await vi.waitFor(() => expect(stateOf(u.id).parts).toHaveLength(1), { timeout: 20_000 });

      // The other node cannot see the first's tail: it resumes from the part's end.
      const head = await s3n.n.head(u.at(other.base), u.token);
      expect(head.headers.get("upload-offset")).toBe(String(8 * MiB));
      const rest = bytes.subarray(8 * MiB);
      const busy = await s3n.n.patch(u.at(other.base), u.token, 8 * MiB, rest);
      expect(busy.status).toBe(423);
      expect(busy.headers.get("retry-after")).toBe("1");
      expect((await busy.json()).error.details.reason).toBe("upload_locked");

      // The first node stops answering (hung, or killed): its lease lapses, the other takes over.
      s3n.clock.advance(LEASE_MS + 1);
      const done = await s3n.n.patch(u.at(other.base), u.token, 8 * MiB, rest);
      expect(done.status).toBe(204);
      expect(done.headers.get("consign-file-sha256")).toBe(sha);
      // The first node's late end records nothing over it.
      stall.error(new Error("client gone"));
      await firstPatch;

      const entry = s3n.n.t.deps.db
        .prepare("SELECT size, sha256 FROM entries WHERE path = 'Inbox/big.bin'")
        .all();
      expect(entry).toEqual([{ size: bytes.length, sha256: sha }]);
      const usage = s3n.n.t.deps.db.prepare("SELECT bytes FROM usage_records").all();
      expect(usage).toEqual([{ bytes: bytes.length }]);
      expect(await objectAt(contentKey(sha))).toBe(bytes.length);
      expect(row(u.id).status).toBe("committed");
      expect(other.deps.files.blobs.stagingIds()).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("encrypts a protected transfer's bytes across PATCHes and parts, at any offset, and gives them back with the password", async () => {
    const password = { [CONTENT_PASSWORD_HEADER]: "correct horse battery" };
    const { transferSpec } = await s3n.n.createTransfer({
      direction: "send",
      paths: [{ source: "/secret", destination: "Vault" }],
      contentProtectionPassword: password[CONTENT_PASSWORD_HEADER],
    });
    const token = transferSpec.token;
    const bytes = randomBytes(11 * MiB + 5);
    const sha = sha256Hex(bytes);
    const created = await s3n.n.create(token, {
      path: "Vault/plan.bin",
      length: bytes.length,
      sha256: sha,
      headers: password,
    });
    const at = created.headers.get("location")!;
    // A PATCH that ends inside a cipher block, so the next starts there.
    const cut = 3 * MiB + 5;
    expect((await s3n.n.patch(at, token, 0, bytes.subarray(0, cut), password)).status).toBe(204);
    const done = await s3n.n.patch(at, token, cut, bytes.subarray(cut), password);
    expect(done.headers.get("consign-file-sha256")).toBe(sha);

    const { iv } = JSON.parse(
      (
        s3n.n.t.deps.db
          .prepare("SELECT protection FROM entries WHERE path = 'Vault/plan.bin'")
          .get() as {
          protection: string;
        }
      ).protection,
    ) as { iv: string };
    const stored = await s3().send(
      new GetObjectCommand({ Bucket: s3n.bucket.bucket, Key: contentKey(`${sha}.${iv}`) }),
    );
    const atRest = Buffer.from(await stored.Body!.transformToByteArray());
    expect(atRest.length).toBe(bytes.length);
    expect(atRest.subarray(0, 1024).equals(bytes.subarray(0, 1024))).toBe(false);
    const { transferSpec: r } = await s3n.n.createTransfer({
      direction: "receive",
      paths: [{ source: "Vault", destination: "/tmp/v" }],
    });
    const back = await s3n.n.download(r.token, "Vault/plan.bin", password);
    expect(sha256Hex(Buffer.from(await back.arrayBuffer()))).toBe(sha);
  });

  it("aborts the multipart upload of a cancelled upload and of an expired one: no parts are left", async () => {
    const bytes = randomBytes(10 * MiB);
    const cancelled = await begin(bytes, "Inbox/a.bin");
    const abandoned = await begin(bytes, "Inbox/b.bin");
    for (const u of [cancelled, abandoned])
      expect(
        (await s3n.n.patch(u.at(s3n.n.base), u.token, 0, bytes.subarray(0, 9 * MiB))).status,
      ).toBe(204);
    const parts = [stateOf(cancelled.id), stateOf(abandoned.id)];
    expect(parts.map((s) => s.parts.length)).toEqual([1, 1]);

    expect((await s3n.n.remove(cancelled.at(s3n.n.base), cancelled.token)).status).toBe(204);
    expect(row(cancelled.id)).toMatchObject({ status: "cancelled", multipart: null });

    s3n.clock.advance(s3n.n.t.deps.config.uploadExpiryMs + 3_600_000);
    await s3n.n.t.deps.jobs.runDue();
    expect(row(abandoned.id)).toMatchObject({ status: "failed", multipart: null });

    expect(await completes(parts[0]!)).toBe(false);
    expect(await completes(parts[1]!)).toBe(false);
    expect(s3n.n.t.deps.files.blobs.stagingIds()).toEqual([]);
    expect(fs.readdirSync(`${s3n.n.t.dir}/blobs/staging`)).toEqual([]);
  });
});
