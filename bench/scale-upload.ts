/**
 * npm run bench:scale (the upload's part): one big file (BENCH_UPLOAD_MB, 1024 by default)
 * uploaded by the agent's upload code through a service's in-process data node with its blobs on
 * local disk, then through one with its blobs in an S3-compatible bucket (s3rver on loopback,
 * started here as the tests start it), in one run: MiB/s of each (from the first byte to the
 * commit's answer) and the service process's peak RSS. s3rver writes its objects and parts to
 * this machine's disk, so the S3 figure measures the node's multipart path plus a second disk
 * write (the parts), a third (their assembly) and a server-side copy, all on this machine.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { sha256File } from "../src/agent/local-files";
import { uploadFile } from "../src/agent/upload";
import type { CreatedTransfer } from "../src/contract/transfers";
import { s3Client } from "../src/server/modules/files/s3-blob-store";
import { startS3rver } from "../src/server/testing/s3-global-setup";
import { serviceProcesses } from "../src/server/testing/service-process";
import { figureLine } from "./stats";

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const MiB = 1024 * 1024;
const line = figureLine(44);

/** The process's peak resident set (VmHWM), in MiB. */
function peakRssMiB(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** Uploads `file` through a fresh service with `env`'s blob store; seconds and peak RSS. */
async function uploadThrough(
  name: string,
  env: Record<string, string>,
  file: { local: string; size: number; mtimeMs: number; sha256: string },
) {
  Object.assign(process.env, env);
  const services = serviceProcesses(`consign-bench-upload-${name}-`);
  for (const k of Object.keys(env)) delete process.env[k];
  try {
    const { child, origin, key } = await services.start();
    const ws = (await services.api(origin, key!, "GET", "/v1/auth/key")).json.workspace.id;
    const res = await services.api(origin, key!, "POST", `/v1/workspaces/${ws}/transfers`, {
      direction: "send",
      paths: [{ source: file.local, destination: "big.bin" }],
      destinationRoot: "Bench",
      fileCount: 1,
      totalBytes: file.size,
    });
    if (res.status !== 201) throw new Error(`POST transfers: ${JSON.stringify(res.json)}`);
    const spec = (res.json as CreatedTransfer).transferSpec;
    const started = performance.now();
    await uploadFile({ ...file, workspacePath: "Bench/big.bin" }, { spec });
    const seconds = (performance.now() - started) / 1000;
    const listed = await services.api(
      origin,
      key!,
      "GET",
      `/v1/workspaces/${ws}/files?path=${encodeURIComponent("Bench")}`,
    );
    const entry = (listed.json.items as { name: string; sha256: string }[]).find(
      (e) => e.name === "big.bin",
    );
    if (entry?.sha256 !== file.sha256) throw new Error(`${name}: the file did not commit right`);
    return { seconds, peak: peakRssMiB(child.pid!) };
  } finally {
    services.close();
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "consign-bench-upload-"));
const s3 = await startS3rver();
try {
  const bucket = `consign-bench-${randomBytes(4).toString("hex")}`;
  const settings = {
    endpoint: s3.endpoint,
    region: "us-east-1",
    bucket,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    forcePathStyle: true,
  };
  await s3Client(settings).send(new CreateBucketCommand({ Bucket: bucket }));

  // Random bytes (16 MiB repeated), page-cached by the time the uploads read them.
  const big = path.join(work, "big.bin");
  const block = randomBytes(16 * MiB);
  const out = fs.openSync(big, "w");
  for (let written = 0; written < UPLOAD_MB * MiB; written += block.length)
    fs.writeSync(out, block, 0, Math.min(block.length, UPLOAD_MB * MiB - written));
  fs.closeSync(out);
  const stat = fs.statSync(big);
  const file = {
    local: big,
    size: stat.size,
    mtimeMs: Math.trunc(stat.mtimeMs),
    sha256: await sha256File(big),
  };
  console.log(`Upload of ${UPLOAD_MB} MiB through the data node; ${os.cpus().length} cores`);

  const disk = await uploadThrough("disk", {}, file);
  const onS3 = await uploadThrough(
    "s3",
    {
      BLOB_STORE: "s3",
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
    file,
  );
  for (const [name, r] of [
    ["local disk", disk],
    ["S3 (s3rver, multipart)", onS3],
  ] as const) {
    line(`${name}: MiB/s`, (UPLOAD_MB / r.seconds).toFixed(0), "", null);
    line(`${name}: seconds`, r.seconds.toFixed(1), "", null);
    line(`${name}: service peak RSS MiB`, r.peak.toFixed(0), "", null);
  }
} finally {
  await s3.close();
  fs.rmSync(work, { recursive: true, force: true });
}
