import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TRANSFER_START_WINDOW_SECONDS } from "@/contract/transfers";
import { ManualClock } from "@/server/lib/clock";
import { diskBlobs } from "@/server/testing/disk-blobs";
import { errorOf } from "@/server/testing/expect-body";
import { folderNames } from "@/server/testing/files-client";
import { type NodeTest, sha256B64, sha256Hex, startNodeTest } from "./node-testing";

let n: NodeTest;
let clock: ManualClock;

beforeEach(async () => {
  clock = new ManualClock(Date.now());
  n = await startNodeTest({ clock });
});
afterEach(() => n.close());

const send = (over: Record<string, unknown> = {}) =>
  n.createTransfer({
    direction: "send",
    paths: [{ source: "/home/ana/shoot", destination: "Shoot" }],
    destinationRoot: "Projects",
    ...over,
  });

const bytesOf = (p: string) => {
  const entry = n.t.deps.files.get(n.t.workspaceId, p);
  return fs.readFileSync(diskBlobs(n.t.deps.files).pathOf(entry.sha256!));
};
const transferRow = (id: string) =>
  n.t.deps.db.prepare("SELECT * FROM transfers WHERE id = ?").get(id) as {
    files_committed: number;
    bytes_committed: number;
  };
const usage = (id: string) =>
  n.t.deps.db.prepare("SELECT direction, bytes FROM usage_records WHERE transfer_id = ?").all(id);
describe("tus uploads", () => {
  it("creates, takes the bytes in chunks and commits the verified file with its counters", async () => {
    const { transferId, transferSpec } = await send();
    const { token } = transferSpec;
    const bytes = randomBytes(300_000);
    const created = await n.create(token, {
      path: "Projects/Shoot/a.bin",
      length: bytes.length,
      sha256: sha256Hex(bytes),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("upload-expires")).toBeTruthy();
    const location = created.headers.get("location")!;
    const first = await n.patch(location, token, 0, bytes.subarray(0, 100_000));
    expect(first.status).toBe(204);
    expect(first.headers.get("upload-offset")).toBe("100000");
    // Nothing is listed while the upload is open.
    expect(await folderNames(n.t, "Projects/Shoot").catch(() => [])).toEqual([]);
    const last = await n.patch(location, token, 100_000, bytes.subarray(100_000));
    expect(last.status).toBe(204);
    expect(last.headers.get("consign-file-sha256")).toBe(sha256Hex(bytes));
    expect(bytesOf("Projects/Shoot/a.bin").equals(bytes)).toBe(true);
    expect(transferRow(transferId)).toMatchObject({ files_committed: 1, bytes_committed: 300_000 });
    expect(usage(transferId)).toEqual([{ direction: "send", bytes: 300_000 }]);
    expect(n.uploads()[0]).toMatchObject({ status: "committed" });
    // The staging file went into the blob store.
    expect(fs.readdirSync(`${diskBlobs(n.t.deps.files).root}/staging`)).toEqual([]);
  });

  it("creation-with-upload commits a small file in one request", async () => {
    const { transferSpec } = await send();
    const bytes = Buffer.from("hello node");
    const res = await n.create(transferSpec.token, {
      path: "Projects/Shoot/hello.txt",
      length: bytes.length,
      sha256: sha256Hex(bytes),
      body: bytes,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("upload-offset")).toBe(String(bytes.length));
    expect(res.headers.get("consign-file-sha256")).toBe(sha256Hex(bytes));
    expect(bytesOf("Projects/Shoot/hello.txt").toString()).toBe("hello node");
  });

  it("an empty file is committed at its creation", async () => {
    const { transferSpec } = await send();
    const res = await n.create(transferSpec.token, { path: "Projects/Shoot/empty", length: 0 });
    expect(res.status).toBe(201);
    expect(res.headers.get("consign-file-sha256")).toBe(sha256Hex(""));
    expect(bytesOf("Projects/Shoot/empty").length).toBe(0);
  });

  it("resumes from the offset HEAD reports, after an interrupted request", async () => {
    const { transferSpec } = await send();
    const { token } = transferSpec;
    const bytes = randomBytes(200_000);
    const created = await n.create(token, { path: "Projects/Shoot/r.bin", length: bytes.length });
    const location = created.headers.get("location")!;
    // A request cut after 120,000 bytes: the body ends early, the staged prefix stays.
    const cut = new ReadableStream({
      start(c) {
        c.enqueue(bytes.subarray(0, 120_000));
        c.error(new Error("connection dropped"));
      },
    });
    await n.patch(location, token, 0, cut).catch(() => null);
    await new Promise((r) => setTimeout(r, 100));
    const head = await n.head(location, token);
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-length")).toBe("200000");
    const offset = Number(head.headers.get("upload-offset"));
    expect(offset).toBeLessThanOrEqual(120_000);
    const rest = await n.patch(location, token, offset, bytes.subarray(offset));
    expect(rest.status).toBe(204);
    expect(rest.headers.get("consign-file-sha256")).toBe(sha256Hex(bytes));
    expect(bytesOf("Projects/Shoot/r.bin").equals(bytes)).toBe(true);
  });

  it("replacing a file keeps the old content as a version", async () => {
    const { transferSpec } = await send();
    await n.upload(transferSpec.token, "Projects/Shoot/v.txt", Buffer.from("one"));
    await n.upload(transferSpec.token, "Projects/Shoot/v.txt", Buffer.from("two"));
    const entry = n.t.deps.files.get(n.t.workspaceId, "Projects/Shoot/v.txt");
    expect(entry.version_count).toBe(1);
    expect(bytesOf("Projects/Shoot/v.txt").toString()).toBe("two");
  });

  it("termination removes the staged bytes and the upload is gone", async () => {
    const { transferSpec } = await send();
    const { token } = transferSpec;
    const created = await n.create(token, { path: "Projects/Shoot/t.bin", length: 10 });
    const location = created.headers.get("location")!;
    await n.patch(location, token, 0, Buffer.from("12345"));
    expect((await n.remove(location, token)).status).toBe(204);
    expect(fs.readdirSync(`${diskBlobs(n.t.deps.files).root}/staging`)).toEqual([]);
    expect(n.uploads()[0]).toMatchObject({ status: "cancelled" });
    expect((await n.head(location, token)).status).toBe(410);
  });

  it("an upload idle past its expiry answers 410 and commits nothing", async () => {
    const { transferSpec } = await send();
    const { token } = transferSpec;
    const created = await n.create(token, { path: "Projects/Shoot/e.bin", length: 10 });
    const location = created.headers.get("location")!;
    await n.patch(location, token, 0, Buffer.from("12345"));
    clock.advance(n.t.deps.config.uploadExpiryMs + 1000);
    const late = await n.patch(location, token, 5, Buffer.from("67890"));
    expect(late.status).toBe(410);
    expect((await errorOf(late)).code).toBe("not_found");
    expect(await folderNames(n.t, "Projects/Shoot").catch(() => [])).toEqual([]);
  });
});

describe("abandoned uploads", () => {
  it("the cleanup job fails uploads idle past their expiry and removes their staged bytes", async () => {
    const { transferSpec, transferId } = await send();
    const { token } = transferSpec;
    const idle = await n.create(token, { path: "Projects/Shoot/idle.bin", length: 10 });
    await n.patch(idle.headers.get("location")!, token, 0, Buffer.from("12345"));
    const staging = `${diskBlobs(n.t.deps.files).root}/staging`;
    expect(fs.readdirSync(staging)).toHaveLength(1);
    await n.t.deps.jobs.runDue();
    expect(fs.readdirSync(staging)).toHaveLength(1);
    clock.advance(n.t.deps.config.uploadExpiryMs + 3_600_000);
    // A cancelled transfer's open upload goes too (the transfers module marks it cancelled).
    const other = await send();
    await n.create(other.transferSpec.token, { path: "Projects/Shoot/c.bin", length: 10 });
    n.t.deps.db
      .prepare("UPDATE transfer_uploads SET status = 'cancelled' WHERE transfer_id = ?")
      .run(other.transferId);
    await n.t.deps.jobs.runDue();
    expect(fs.readdirSync(staging)).toEqual([]);
    expect(n.uploads().find((u) => u.path === "Projects/Shoot/idle.bin")).toMatchObject({
      status: "failed",
      error: "expired",
    });
    expect(transferRow(transferId).files_committed).toBe(0);
  });
});

describe("checksums", () => {
  it("a chunk whose Upload-Checksum does not match is refused with 460 and not kept", async () => {
    const { transferSpec } = await send();
    const { token } = transferSpec;
    const bytes = Buffer.from("0123456789");
    const created = await n.create(token, { path: "Projects/Shoot/c.txt", length: 10 });
    const location = created.headers.get("location")!;
    const ok = await n.patch(location, token, 0, bytes.subarray(0, 5), {
      "Upload-Checksum": `sha256 ${sha256B64(bytes.subarray(0, 5))}`,
    });
    expect(ok.status).toBe(204);
    const bad = await n.patch(location, token, 5, bytes.subarray(5), {
      "Upload-Checksum": `sha256 ${sha256B64("something else")}`,
    });
    expect(bad.status).toBe(460);
    const error = await errorOf(bad);
    expect(error.code).toBe("validation_failed");
    expect(error.details.issues).toMatchObject([{ code: "checksum_mismatch" }]);
    expect((await n.head(location, token)).headers.get("upload-offset")).toBe("5");
    expect(await folderNames(n.t, "Projects/Shoot").catch(() => [])).toEqual([]);
    // The right chunk then completes the file, with the hash of the bytes kept.
    const good = await n.patch(location, token, 5, bytes.subarray(5), {
      "Upload-Checksum": `sha256 ${sha256B64(bytes.subarray(5))}`,
    });
    expect(good.headers.get("consign-file-sha256")).toBe(sha256Hex(bytes));
  });

  it("a whole file that does not match its declared sha256 is refused and nothing is committed", async () => {
    const { transferId, transferSpec } = await send();
    const res = await n.create(transferSpec.token, {
      path: "Projects/Shoot/w.txt",
      length: 5,
      sha256: sha256Hex("other"),
      body: Buffer.from("bytes"),
    });
    expect(res.status).toBe(460);
    expect((await errorOf(res)).details.issues).toMatchObject([{ code: "checksum_mismatch" }]);
    expect(await folderNames(n.t, "Projects/Shoot").catch(() => [])).toEqual([]);
    expect(transferRow(transferId).files_committed).toBe(0);
    expect(usage(transferId)).toEqual([]);
    expect(n.uploads()[0]).toMatchObject({ status: "failed", error: "checksum_mismatch" });
    expect(fs.readdirSync(`${diskBlobs(n.t.deps.files).root}/staging`)).toEqual([]);
  });
});

describe("refusals", () => {
  it("a token for another transfer cannot see or touch this transfer's upload", async () => {
    const a = await send();
    const b = await send();
    const created = await n.create(a.transferSpec.token, { path: "Projects/Shoot/x", length: 4 });
    const location = created.headers.get("location")!;
    const res = await n.patch(location, b.transferSpec.token, 0, Buffer.from("abcd"));
    expect(res.status).toBe(404);
    expect((await n.head(location, b.transferSpec.token)).status).toBe(404);
    expect((await n.remove(location, b.transferSpec.token)).status).toBe(404);
  });

  it("an unknown or expired token is refused", async () => {
    const res = await n.create(`ctt_${"a".repeat(43)}`, { path: "Projects/Shoot/x", length: 1 });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe("unauthenticated");
    const { transferSpec } = await send();
    clock.advance(TRANSFER_START_WINDOW_SECONDS * 1000 + 1000);
    const late = await n.create(transferSpec.token, { path: "Projects/Shoot/x", length: 1 });
    expect(late.status).toBe(401);
    expect((await errorOf(late)).code).toBe("expired_token");
  });

  it("a path outside the transfer's destinations is refused", async () => {
    const { transferSpec } = await send();
    const res = await n.create(transferSpec.token, { path: "Projects/Other/x", length: 1 });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).details).toMatchObject({ reason: "outside_transfer" });
    expect(n.uploads()).toEqual([]);
  });

  it("an upload beyond the declared totals is refused", async () => {
    const { transferSpec } = await send({ totalBytes: 10, fileCount: 2 });
    const { token } = transferSpec;
    const big = await n.create(token, { path: "Projects/Shoot/big", length: 11 });
    expect(big.status).toBe(413);
    expect((await errorOf(big)).details.issues).toMatchObject([{ code: "beyond_totals" }]);
    expect((await n.create(token, { path: "Projects/Shoot/a", length: 4 })).status).toBe(201);
    expect((await n.create(token, { path: "Projects/Shoot/b", length: 4 })).status).toBe(201);
    expect((await n.create(token, { path: "Projects/Shoot/c", length: 1 })).status).toBe(413);
  });

  it("more uploads in flight than the transfer's streams get 429 node_busy with Retry-After", async () => {
    const { transferSpec } = await send({ streams: 1 });
    const { token } = transferSpec;
    const created = await n.create(token, { path: "Projects/Shoot/s1", length: 10 });
    let release!: () => void;
    const held = new ReadableStream({
      async start(c) {
        c.enqueue(Buffer.from("12345"));
        await new Promise<void>((r) => {
          release = r;
        });
        c.enqueue(Buffer.from("67890"));
        c.close();
      },
    });
    const first = n.patch(created.headers.get("location")!, token, 0, held);
    await new Promise((r) => setTimeout(r, 100));
    const second = await n.create(token, {
      path: "Projects/Shoot/s2",
      length: 1,
      body: Buffer.from("x"),
    });
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("1");
    expect((await errorOf(second)).code).toBe("node_busy");
    release();
    expect((await first).status).toBe(204);
  });

  it("a receive's token cannot upload, and an ended transfer takes no more bytes", async () => {
    await n.t.deps.files.writeFile(n.t.workspaceId, "Out/a.txt", "a");
    const receive = await n.createTransfer({
      direction: "receive",
      paths: [{ source: "Out/a.txt", destination: "/tmp/a.txt" }],
    });
    const res = await n.create(receive.transferSpec.token, { path: "Out/b.txt", length: 1 });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).details).toMatchObject({ reason: "wrong_direction" });
    const { transferId, transferSpec } = await send();
    n.t.deps.db.prepare("UPDATE transfers SET status = 'cancelled' WHERE id = ?").run(transferId);
    const ended = await n.create(transferSpec.token, { path: "Projects/Shoot/z", length: 1 });
    expect(ended.status).toBe(401);
    expect((await errorOf(ended)).details).toMatchObject({ reason: "transfer_ended" });
  });
});
