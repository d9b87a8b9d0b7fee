/**
 * `npm run bench:move`: how fast `npm run move` takes an embedded install's blobs to an
 * S3-compatible bucket (s3rver on loopback, as the tests use), first run and re-run (all
 * skipped), with 1 and 4 uploads at once. Blobs only: the rows' part is measured by its own
 * report (the command prints its time).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { bootstrap } from "../src/server/bootstrap";
import { moveBlobs } from "../src/server/db/pg/move-blobs";
import { createDeps } from "../src/server/deps";
import { type S3Settings, testConfig } from "../src/server/env";
import { s3Client } from "../src/server/modules/files/s3-blob-store";

const MIB = 1024 * 1024;
/** A mix like a studio's: a few large media files and many small ones. */
const LARGE = { count: 6, bytes: 32 * MIB };
const SMALL = { count: 400, bytes: 64 * 1024 };

const root = path.resolve(import.meta.dirname, "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-bench-move-"));
// The server in a process of its own, as a real one would be: not on this one's event loop.
const server = spawn(
  process.execPath,
  [
    "-e",
    `const S3rver = require("s3rver");
     new S3rver({ address: "127.0.0.1", port: 0, directory: ${JSON.stringify(path.join(dir, "s3"))},
       silent: true, vhostBuckets: false }).run().then(({ port }) => console.log(port));`,
  ],
  { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
);
const port = await new Promise<number>((resolve) =>
  server.stdout.once("data", (d) => resolve(Number(String(d).trim()))),
);
const deps = createDeps(testConfig(path.join(dir, "data")));
try {
  const workspaceId = bootstrap(deps).workspace.id;
  for (let i = 0; i < LARGE.count; i++)
    await deps.files.writeFile(workspaceId, `large/${i}.bin`, randomBytes(LARGE.bytes));
  for (let i = 0; i < SMALL.count; i++)
    await deps.files.writeFile(workspaceId, `small/${i}.bin`, randomBytes(SMALL.bytes));
  const total = LARGE.count * LARGE.bytes + SMALL.count * SMALL.bytes;
  process.stdout.write(
    `${LARGE.count} × ${LARGE.bytes / MIB} MiB + ${SMALL.count} × ${SMALL.bytes / 1024} KiB = ${(total / MIB).toFixed(0)} MiB\n`,
  );
  for (const concurrency of [1, 4]) {
    const s3: S3Settings = {
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      bucket: `bench-move-${concurrency}`,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      forcePathStyle: true,
    };
    await s3Client(s3).send(new CreateBucketCommand({ Bucket: s3.bucket }));
    for (const run of ["first run", "re-run"]) {
      const started = performance.now();
      const report = await moveBlobs(deps.db, deps.config.dataDir, s3, { concurrency });
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(
        `concurrency ${concurrency}, ${run}: ${seconds.toFixed(2)} s, ${(total / MIB / seconds).toFixed(1)} MiB/s, uploaded ${report.uploaded}, skipped ${report.skipped}\n`,
      );
    }
  }
  // The floor: the same files PUT one after another with no checks (no HEADs, no hashing).
  const s3: S3Settings = {
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    bucket: "bench-move-plain",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    forcePathStyle: true,
  };
  await s3Client(s3).send(new CreateBucketCommand({ Bucket: s3.bucket }));
  const started = performance.now();
  const blobs = path.join(deps.config.dataDir, "blobs");
  for (const file of fs.readdirSync(blobs, { recursive: true, encoding: "utf8" })) {
    if (!/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(file)) continue;
    const Body = fs.createReadStream(path.join(blobs, file));
    await new Upload({
      client: s3Client(s3),
      params: { Bucket: s3.bucket, Key: file, Body },
    }).done();
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `plain PUTs, one at a time: ${seconds.toFixed(2)} s, ${(total / MIB / seconds).toFixed(1)} MiB/s\n`,
  );
} finally {
  deps.db.close();
  server.kill();
  fs.rmSync(dir, { recursive: true, force: true });
}
