import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { DeleteObjectCommand } from "@aws-sdk/client-s3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig, type S3Settings } from "@/server/env";
import { keyOf, s3Client } from "@/server/modules/files/s3-blob-store";
import { startService } from "@/server/server";
import { diskBlobs } from "@/server/testing/disk-blobs";
import { makeTone } from "@/server/testing/media";
import { createPgDatabase } from "@/server/testing/pg-database";
import { freshBucket } from "@/server/testing/s3";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { moveBlobs } from "./move-blobs";

// PostgreSQL and S3 only: `npm run move` takes an embedded install's blobs to the bucket, then
// its rows to PostgreSQL, as a user runs it (the command in a process of its own).
const root = path.resolve(import.meta.dirname, "../../../..");
const sha256Hex = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

let t: TestApp;
let pg: Awaited<ReturnType<typeof createPgDatabase>>;
let bucket: S3Settings;
const content = {
  big: randomBytes(9 * 1024 * 1024 + 17),
  first: Buffer.from("the first take"),
  second: Buffer.from("the second take, kept as the file"),
  trashed: Buffer.from("trashed, but restorable"),
};

const env = () => ({
  ...process.env,
  DATA_DIR: t.dir,
  DATABASE_URL: pg.url,
  BLOB_STORE: "s3",
  S3_ENDPOINT: bucket.endpoint!,
  S3_BUCKET: bucket.bucket,
  S3_ACCESS_KEY_ID: bucket.credentials!.accessKeyId,
  S3_SECRET_ACCESS_KEY: bucket.credentials!.secretAccessKey,
  S3_FORCE_PATH_STYLE: "1",
  LOG_LEVEL: "silent",
});

/** `npm run move` as a user runs it, to its end: exit code and output. */
async function runMove() {
  try {
    const out = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "src/server/cli/move.ts", "--concurrency", "3"],
      { cwd: root, env: env() },
    );
    return { code: 0, ...out };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeEach(async () => {
  t = await createTestApp();
  pg = await createPgDatabase();
  bucket = await freshBucket();
  const { files } = t.deps;
  await files.writeFile(t.workspaceId, "Shoot/big.bin", content.big);
  await files.writeFile(t.workspaceId, "Notes/take.txt", content.first);
  // A new content keeps the first as a version.
  await files.writeFile(t.workspaceId, "Notes/take.txt", content.second);
  await files.writeFile(t.workspaceId, "Old/gone.txt", content.trashed);
  const trashed = await t.call("DELETE", t.w("/files"), { body: { paths: ["Old"] } });
  expect(trashed.status).toBe(200);
});
afterEach(async () => {
  await t.close();
  await pg.drop();
});

describe("npm run move with blobs", () => {
  it("moves every blob and row, and a service on DATABASE_URL and the bucket serves the same bytes", async () => {
    // A rendition (derived media) goes too, under its content's key.
    await t.deps.files.writeFile(t.workspaceId, "Audio/tone.wav", await makeTone(1));
    await t.call("POST", t.w("/files/proxies"), { body: { paths: ["Audio/tone.wav"] } });
    await t.deps.jobs.runDue();
    const waveformUrl = "/files/proxy?path=Audio%2Ftone.wav&kind=waveform";
    const waveform = await t.app.request(t.w(waveformUrl), {
      headers: { Authorization: `Bearer ${t.adminKey}` },
    });
    expect(waveform.status).toBe(200);
    const waveBytes = Buffer.from(await waveform.arrayBuffer());

    const moved = await runMove();
    expect(moved.stderr).toContain("objects: 6/6");
    expect(moved.stdout).toMatch(
      /In s3:\/\/\S+: 5 blobs and 1 renditions .* uploaded 6 .* skipped 0/,
    );
    expect(moved.code).toBe(0);
    const { rows } = await pg.pool.query<{ n: number }>("SELECT count(*) AS n FROM file_versions");
    expect(rows[0]!.n).toBe(1);

    // The same install without its blobs folder, on PostgreSQL and the bucket.
    const dir = fs.mkdtempSync(`${t.dir}-moved-`);
    await t.deps.db.backup(path.join(dir, "consign.db"));
    const { blobStore: _, ...base } = loadConfig({ ...env(), DATA_DIR: dir, PORT: "0" });
    const service = await startService({ ...base, blobStore: { kind: "s3", s3: bucket } });
    try {
      const api = async (method: string, url: string, body?: unknown) => {
        const res = await fetch(`${service.url}/v1/workspaces/${t.workspaceId}${url}`, {
          method,
          headers: { Authorization: `Bearer ${t.adminKey}`, "Content-Type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, json: await res.json() };
      };
      // The trashed file and the kept version come back too.
      const item = (await api("GET", "/files/trash")).json[0] as { id: string };
      expect((await api("POST", `/files/trash/${item.id}/restore`)).status).toBe(200);
      const download = async (p: string) => {
        const created = await api("POST", "/transfers", {
          direction: "receive",
          paths: [{ source: p, destination: "/tmp/x" }],
        });
        expect(created.status).toBe(201);
        const spec = created.json.transferSpec as { token: string; node: { files: string } };
        const res = await fetch(`${spec.node.files}?path=${encodeURIComponent(p)}`, {
          headers: { Authorization: `Bearer ${spec.token}` },
        });
        expect(res.status).toBe(200);
        return Buffer.from(await res.arrayBuffer());
      };
      expect((await download("Shoot/big.bin")).equals(content.big)).toBe(true);
      expect((await download("Audio/tone.wav")).length).toBeGreaterThan(0);
      const served = await fetch(`${service.url}/v1/workspaces/${t.workspaceId}${waveformUrl}`, {
        headers: { Authorization: `Bearer ${t.adminKey}` },
      });
      expect(Buffer.from(await served.arrayBuffer()).equals(waveBytes)).toBe(true);
      expect((await download("Old/gone.txt")).equals(content.trashed)).toBe(true);
      expect((await download("Notes/take.txt")).equals(content.second)).toBe(true);
      const versions = await api("GET", "/files/versions?path=Notes%2Ftake.txt");
      const kept = (versions.json as { id: string }[])[0]!;
      expect((await api("POST", `/files/versions/${kept.id}/restore`)).status).toBe(200);
      expect((await download("Notes/take.txt")).equals(content.first)).toBe(true);
      // Nothing was read from a local copy: the new data dir has only what the bucket gave.
      expect(fs.existsSync(path.join(dir, "blobs", sha256Hex(content.big).slice(0, 2)))).toBe(
        false,
      );
    } finally {
      await service.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it("fails naming a corrupted blob, and leaves PostgreSQL untouched and the bad object out of the bucket", async () => {
    const sha = sha256Hex(content.first);
    const file = diskBlobs(t.deps.files).pathOf(sha);
    const bytes = fs.readFileSync(file);
    bytes[3] = bytes[3]! ^ 0xff;
    fs.writeFileSync(file, bytes);
    const moved = await runMove();
    expect(moved.code).not.toBe(0);
    expect(moved.stderr).toContain(`${keyOf(sha)} (its bytes hash to ${sha256Hex(bytes)})`);
    // The blobs come first: no row reached PostgreSQL.
    const { rows } = await pg.pool.query<{ n: number }>(
      "SELECT (SELECT count(*) FROM workspaces) + (SELECT count(*) FROM entries) AS n",
    );
    expect(rows[0]!.n).toBe(0);
    // The other blobs are there; the wrong one is not, so a re-run cannot skip it.
    const again = await moveBlobs(t.deps.db, t.dir, bucket).catch((e: Error) => e);
    expect(String(again)).toContain(keyOf(sha));
  });

  it("fails naming a blob a row references that is missing on disk, before uploading any", async () => {
    const sha = sha256Hex(content.trashed);
    fs.rmSync(diskBlobs(t.deps.files).pathOf(sha));
    await expect(moveBlobs(t.deps.db, t.dir, bucket)).rejects.toThrow(
      `${keyOf(sha)} (missing on disk)`,
    );
    // Nothing went: a run with the file back uploads all four.
    fs.writeFileSync(diskBlobs(t.deps.files).pathOf(sha), content.trashed);
    expect((await moveBlobs(t.deps.db, t.dir, bucket)).uploaded).toBe(4);
  });

  it("skips on a re-run what the bucket already holds, and uploads what it lacks", async () => {
    const first = await moveBlobs(t.deps.db, t.dir, bucket);
    expect(first).toMatchObject({ blobs: 4, uploaded: 4, skipped: 0 });
    // As if the first run had stopped before this one.
    await s3Client(bucket).send(
      new DeleteObjectCommand({ Bucket: bucket.bucket, Key: keyOf(sha256Hex(content.big)) }),
    );
    const again = await moveBlobs(t.deps.db, t.dir, bucket);
    expect(again).toMatchObject({
      blobs: 4,
      uploaded: 1,
      uploadedBytes: content.big.length,
      skipped: 3,
    });
  });

  it("names every key the bucket refused, rather than stopping at the first fault", async () => {
    const gone = { ...bucket, bucket: `${bucket.bucket}-none` };
    const failed = await moveBlobs(t.deps.db, t.dir, gone).catch((e: Error) => e);
    expect(String(failed)).toContain("4 blob(s) cannot move");
    expect(String(failed)).toContain(keyOf(sha256Hex(content.big)));
  });
});
