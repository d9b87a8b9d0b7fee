import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { createApp } from "@/server/app";
import { openDatabase } from "@/server/db/database";
import { createDeps } from "@/server/deps";
import { type S3Settings, testConfig } from "@/server/env";
import { purgeExpired } from "@/server/modules/files/files.workers";
import { isNotFound, s3Client } from "@/server/modules/files/s3-blob-store";
import { thumbnailRenderCount } from "@/server/modules/files/thumbnail";
import { flatImage, makeClip } from "@/server/testing/media";
import { freshBucket } from "@/server/testing/s3";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { sweepRenditions } from "./media.workers";
import { SETTINGS } from "./render.service";
import { renditionKey } from "./rendition-store";

// S3 only (s3rver): renditions and thumbnails kept in the bucket by content, served by any
// process on it.
let clip: Buffer;
beforeAll(async () => {
  clip = await makeClip();
});

let t: TestApp;
let bucket: S3Settings;
beforeEach(async () => {
  bucket = await freshBucket();
  t = await createTestApp({ config: { blobStore: { kind: "s3", s3: bucket } } });
});
afterEach(() => t.close());

/** The object's size, or null when the bucket has none. */
async function inBucket(key: string) {
  try {
    const head = await s3Client(bucket).send(
      new HeadObjectCommand({ Bucket: bucket.bucket, Key: key }),
    );
    return head.ContentLength ?? 0;
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

const proxyOf = async (app: { request: TestApp["app"]["request"] }, range?: string) => {
  const res = await app.request(t.w("/files/proxy?path=clips%2Fa.mp4&kind=proxy720"), {
    headers: { Authorization: `Bearer ${t.adminKey}`, ...(range ? { Range: range } : {}) },
  });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
};

it("keeps renditions in the bucket under their content's key, and a second process on the bucket serves them with Range without rendering", async () => {
  const file = await t.deps.files.writeFile(t.workspaceId, "clips/a.mp4", clip);
  const queued = await t.call("POST", t.w("/files/proxies"), { body: { paths: ["clips/a.mp4"] } });
  expect(queued.json).toEqual({ queued: 3 });
  await t.deps.jobs.runDue();
  const rows = t.deps.db
    .prepare("SELECT kind, page, settings, size_bytes, status FROM renditions ORDER BY kind")
    .all() as { kind: "proxy720"; page: number; settings: string; size_bytes: number }[];
  expect(rows.map((r) => r.kind)).toEqual(["contact_sheet", "proxy720", "waveform"]);
  for (const r of rows) {
    expect(r.settings).toBe(SETTINGS[r.kind]);
    expect(await inBucket(renditionKey({ sha256: file.sha256!, ...r }))).toBe(r.size_bytes);
  }
  // Nothing of them stays on the local disk.
  const cache = path.join(t.dir, "cache", "renditions");
  const left = fs.existsSync(cache) ? fs.readdirSync(cache, { recursive: true }) : [];
  expect(left.filter((f) => /\.\w+$/.test(String(f)))).toEqual([]);

  const whole = await proxyOf(t.app);
  expect(whole.status).toBe(200);
  expect(whole.body.length).toBe(rows.find((r) => r.kind === "proxy720")!.size_bytes);
  const part = await proxyOf(t.app, "bytes=100-1123");
  expect(part.status).toBe(206);
  expect(part.body.equals(whole.body.subarray(100, 1124))).toBe(true);

  // A second process: the same database, the same bucket, an empty data dir of its own.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-second-"));
  const second = createDeps(testConfig(dir, { blobStore: { kind: "s3", s3: bucket } }), {
    db: openDatabase(path.join(t.dir, "consign.db")),
  });
  try {
    const app = createApp(second);
    const served = await proxyOf(app, "bytes=100-1123");
    expect(served.status).toBe(206);
    expect(served.body.equals(part.body)).toBe(true);
    expect((await proxyOf(app)).body.equals(whole.body)).toBe(true);
    const again = await app.request(t.w("/files/proxies"), {
      method: "POST",
      headers: { Authorization: `Bearer ${t.adminKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ paths: ["clips/a.mp4"] }),
    });
    expect(await again.json()).toEqual({ queued: 0 });
    expect(fs.existsSync(path.join(dir, "cache"))).toBe(false);
  } finally {
    second.db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  // Content no longer stored: the sweep takes its renditions out of the bucket too.
  await t.call("DELETE", t.w("/files"), { body: { paths: ["clips"], permanent: true } });
  await purgeExpired(t.deps);
  await sweepRenditions(t.deps);
  for (const r of rows)
    expect(await inBucket(renditionKey({ sha256: file.sha256!, ...r }))).toBe(null);
});

it("keeps a thumbnail in the bucket, and a second process on it serves the thumbnail without rendering", async () => {
  await t.deps.files.writeFile(t.workspaceId, "Stills/a.png", await flatImage(64, 48));
  const preview = (app: { request: TestApp["app"]["request"] }) =>
    app.request(t.w("/files/preview?path=Stills%2Fa.png"), {
      headers: { Authorization: `Bearer ${t.adminKey}` },
    });
  const first = await preview(t.app);
  expect(first.status).toBe(200);
  const jpeg = Buffer.from(await first.arrayBuffer());
  const rendered = thumbnailRenderCount();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-second-"));
  const second = createDeps(testConfig(dir, { blobStore: { kind: "s3", s3: bucket } }), {
    db: openDatabase(path.join(t.dir, "consign.db")),
  });
  try {
    const served = await preview(createApp(second));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(jpeg)).toBe(true);
    expect(thumbnailRenderCount()).toBe(rendered);
  } finally {
    second.db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
