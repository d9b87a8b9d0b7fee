import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The S3-compatible test server (s3rver) and the credentials it checks signatures with. */
    s3: { endpoint: string; accessKeyId: string; secretAccessKey: string };
  }
}

/**
 * A real S3-compatible server on 127.0.0.1 (s3rver, storing in a temp dir), with the abort it
 * lacks added; `close` stops it and removes its folder. The tests' global setup and
 * `bench/scale-upload.ts` start it.
 */
export async function startS3rver() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory: dir,
    silent: true,
    vhostBuckets: false,
  });
  // s3rver 3.7.1 has no AbortMultipartUpload (a DELETE with ?uploadId answers 405): this adds
  // it, as S3 does it, over s3rver's own folder of an upload's parts, so the node's aborts are
  // tested against a server that lets parts go.
  server.middleware.unshift(async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    if (ctx.method !== "DELETE" || typeof uploadId !== "string") return next();
    const bucket = ctx.path.split("/")[1] ?? "";
    const parts = path.join(dir, bucket, "._S3rver_uploads", uploadId);
    if (!/^[0-9a-f]+$/.test(uploadId) || !fs.existsSync(parts)) {
      ctx.status = 404;
      ctx.type = "application/xml";
      ctx.body = "<Error><Code>NoSuchUpload</Code></Error>";
      return;
    }
    fs.rmSync(parts, { recursive: true, force: true });
    ctx.status = 204;
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    // s3rver's fixed credentials: it checks request signatures against them.
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One real S3-compatible server for the test run: tests make their own buckets on it
 * (`freshBucket`), since content-addressed keys would collide across tests sharing one.
 * docs/scale-out.md (Bytes on S3, Uploads on S3) says what it lacks next to AWS S3.
 */
export default async function setup(project: TestProject) {
  const { close, ...s3 } = await startS3rver();
  project.provide("s3", s3);
  return close;
}
