/**
 * npm run bench:transfers: the data plane side by side in one run, on one temporary data dir,
 * the service (with its in-process data node) in its own process and the engine here:
 * (a) one big file (BENCH_TRANSFER_MB, 1024 by default) written straight to disk, uploaded to a
 *     plain @tus/server with its FileStore (in its own process), and uploaded through our node
 *     by the agent's upload code;
 * (b) BENCH_SMALL_FILES (10,000) files of 4 KB sent in one transfer by the agent (its CLI);
 * (c) the big file downloaded from the node with Range, against reading it from disk;
 * (d) the files list's p99 with and without a big upload running (load from a worker thread).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { downloadFile } from "../src/agent/download";
import { sha256File } from "../src/agent/local-files";
import { uploadFile } from "../src/agent/upload";
import type { CreatedTransfer } from "../src/contract/transfers";
import { serviceProcesses } from "../src/server/testing/service-process";
import { load } from "./load";
import { figureLine, percentile } from "./stats";

const BIG_MB = Number(process.env.BENCH_TRANSFER_MB ?? 1024);
const SMALL_FILES = Number(process.env.BENCH_SMALL_FILES ?? 10_000);
const SMALL_BYTES = 4096;
const SMALL_STREAMS = Number(process.env.BENCH_SMALL_STREAMS ?? 8);

const MBs = (bytes: number, ms: number) => (bytes / 1e6 / (ms / 1000)).toFixed(0);
const line = figureLine(58);

process.env.RATE_LIMIT_PER_MINUTE = "1000000";
const services = serviceProcesses("consign-bench-transfers-");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "consign-bench-transfers-work-"));
let plainTus = null as ChildProcess | null;
let standaloneNode = null as ChildProcess | null;

async function timed<T>(fn: () => Promise<T>) {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

/**
 * A plain @tus/server with its FileStore in its own process, as the node runs in its own; it
 * also serves `file` at /raw with node:http alone (the loopback ceiling for a download).
 */
async function startPlainTus(dir: string, file: string) {
  const script = `
    import fs from "node:fs";
    import http from "node:http";
    import { Server } from "@tus/server";
    import { FileStore } from "@tus/file-store";
    const tus = new Server({ path: "/files", datastore: new FileStore({ directory: ${JSON.stringify(dir)} }) });
    const raw = (res) => {
      res.writeHead(200, { "Content-Length": fs.statSync(${JSON.stringify(file)}).size });
      fs.createReadStream(${JSON.stringify(file)}, { highWaterMark: 1 << 20 }).pipe(res);
    };
    const server = http.createServer((req, res) => (req.url === "/raw" ? raw(res) : tus.handle(req, res)));
    server.listen(0, "127.0.0.1", () => console.log("port " + server.address().port));`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: services.root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  plainTus = child;
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`plain tus exited with ${code}`)));
    child.stdout!.on("data", (d) => {
      const m = /port (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
  });
  return `http://127.0.0.1:${port}/files`;
}

/** `npm run node` on the service's data dir; resolves with its base URL. */
async function startStandaloneNode() {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/node/main.ts"], {
    cwd: services.root,
    env: { ...services.env, NODE_PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  standaloneNode = child;
  return new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the data node exited with ${code}`)));
    child.stdout!.on("data", (d) => {
      const m = /data node at (\S+)/.exec(String(d));
      if (m) resolve(m[1]!);
    });
  });
}

/** Reads a GET's body into nothing; resolves with the bytes read. */
function drain(url: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        if (res.statusCode !== 206 && res.statusCode !== 200)
          reject(new Error(`${url} answered ${res.statusCode}`));
        let n = 0;
        res.on("data", (c: Buffer) => {
          n += c.length;
        });
        res.on("end", () => resolve(n));
      })
      .on("error", reject);
  });
}

async function drainFile(file: string) {
  let n = 0;
  for await (const c of fs.createReadStream(file, { highWaterMark: 1 << 20 })) n += c.length;
  return n;
}

try {
  const { origin, key } = await services.start();
  const admin = key!;
  const ws = (await services.api(origin, admin, "GET", "/v1/auth/key")).json.workspace.id;
  const transfers = `/v1/workspaces/${ws}/transfers`;
  const create = async (body: object) => {
    const res = await services.api(origin, admin, "POST", transfers, body);
    if (res.status !== 201) throw new Error(`POST transfers: ${JSON.stringify(res.json)}`);
    return res.json as CreatedTransfer;
  };

  // The big file: random bytes (16 MB repeated), page-cached like the disk baseline's.
  const bigBytes = BIG_MB * 1024 * 1024;
  const big = path.join(work, "big.bin");
  const block = randomBytes(16 * 1024 * 1024);
  const out = fs.openSync(big, "w");
  for (let written = 0; written < bigBytes; written += block.length)
    fs.writeSync(out, block, 0, Math.min(block.length, bigBytes - written));
  fs.closeSync(out);
  const stat = fs.statSync(big);
  const hashed = await timed(() => sha256File(big));
  const sha256 = hashed.value;
  const file = { local: big, size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs), sha256 };
  console.log(`Big file: ${BIG_MB} MiB; ${os.cpus().length} cores`);

  // (a) Straight to disk, plain tus, our node.
  const disk = await timed(() =>
    pipeline(
      fs.createReadStream(big, { highWaterMark: 1 << 20 }),
      fs.createWriteStream(path.join(work, "copy.bin")),
    ),
  );
  fs.rmSync(path.join(work, "copy.bin"));
  const plainDir = path.join(work, "plain-tus");
  fs.mkdirSync(plainDir);
  const plainEndpoint = await startPlainTus(plainDir, big);
  const sendBig = await create({
    direction: "send",
    paths: [{ source: big, destination: "big.bin" }],
    destinationRoot: "Bench",
    fileCount: 1,
    totalBytes: stat.size,
  });
  const chunkSizeBytes = sendBig.transferSpec.chunkSizeBytes;
  const plain = await timed(() =>
    uploadFile(
      { ...file, workspacePath: "big.bin" },
      {
        spec: {
          transferId: "plain",
          token: "none",
          chunkSizeBytes,
          node: { url: plainEndpoint, uploads: plainEndpoint, files: "", zip: "" },
        },
      },
    ),
  );
  fs.rmSync(plainDir, { recursive: true, force: true });
  const ours = await timed(() =>
    uploadFile({ ...file, workspacePath: "Bench/big.bin" }, { spec: sendBig.transferSpec }),
  );

  // (c) Download with Range, against reading the file from disk.
  const receiveBig = await create({
    direction: "receive",
    paths: [{ source: "Bench/big.bin", destination: path.join(work, "down.bin") }],
  });
  const fromDisk = await timed(() => drainFile(big));
  const url = new URL(receiveBig.transferSpec.node.files);
  url.searchParams.set("path", "Bench/big.bin");
  const served = await timed(() =>
    drain(url.href, {
      Authorization: `Bearer ${receiveBig.transferSpec.token}`,
      Range: "bytes=0-",
    }),
  );
  const rawServed = await timed(() => drain(plainEndpoint.replace(/\/files$/, "/raw"), {}));
  plainTus?.kill("SIGKILL");
  const agentDown = await timed(() =>
    downloadFile(
      { workspacePath: "Bench/big.bin", local: path.join(work, "down.bin"), sha256 },
      { spec: receiveBig.transferSpec },
    ),
  );
  fs.rmSync(path.join(work, "down.bin"));

  // (b) Many small files by the agent's CLI, as a person runs it.
  const smallDir = path.join(work, "small");
  fs.mkdirSync(smallDir);
  for (let i = 0; i < SMALL_FILES; i++) {
    const sub = path.join(smallDir, `d${String(Math.floor(i / 1000)).padStart(2, "0")}`);
    if (i % 1000 === 0) fs.mkdirSync(sub);
    fs.writeFileSync(
      path.join(sub, `f${String(i).padStart(5, "0")}.bin`),
      randomBytes(SMALL_BYTES),
    );
  }
  const agentRun = await timed(
    () =>
      new Promise<{ code: number | null; done: { filesDone: number; seconds: number } | null }>(
        (resolve) => {
          const child = spawn(
            process.execPath,
            [
              "--import",
              "tsx",
              "src/agent/main.ts",
              "send",
              smallDir,
              "--to",
              "Bench",
              "--json",
              "--streams",
              String(SMALL_STREAMS),
              "--state-dir",
              path.join(work, "agent-state"),
            ],
            {
              cwd: services.root,
              env: { ...process.env, CONSIGN_URL: origin, CONSIGN_KEY: admin },
              stdio: ["ignore", "pipe", "inherit"],
            },
          );
          let buffered = "";
          let done: { filesDone: number; seconds: number } | null = null;
          child.stdout!.on("data", (d) => {
            buffered += String(d);
            const lines = buffered.split("\n");
            buffered = lines.pop()!;
            for (const l of lines) {
              const event = JSON.parse(l);
              if (event.event === "done") done = event;
              if (event.event === "error") console.log(`agent: ${event.message}`);
            }
          });
          child.once("exit", (code) => resolve({ code, done }));
        },
      ),
  );

  // (d) The files list's p99, then again while a big upload runs.
  const listed = `Bench/small/d00`;
  const listUrl = (i: number) =>
    `${origin}/v1/workspaces/${ws}/files?path=${encodeURIComponent(listed)}&skip=${(i * 37) % 800}&count=200`;
  const urls = (n: number, offset: number) =>
    Array.from({ length: n }, (_, i) => listUrl(i + offset));
  const headers = { Authorization: `Bearer ${admin}` };
  await load(urls(500, 0), headers);
  const baseline = await load(urls(2000, 500), headers);
  /** The list's latencies while the big file goes up again, to `nodeUrl` if given. */
  const listedDuringUpload = async (name: string, nodeUrl?: string) => {
    const created = await create({
      direction: "send",
      paths: [{ source: big, destination: name }],
      destinationRoot: "Bench",
      fileCount: 1,
      totalBytes: stat.size,
    });
    const spec = nodeUrl
      ? {
          ...created.transferSpec,
          node: { ...created.transferSpec.node, url: nodeUrl, uploads: `${nodeUrl}/uploads` },
        }
      : created.transferSpec;
    let uploading = true;
    const upload = uploadFile({ ...file, workspacePath: `Bench/${name}` }, { spec }).finally(() => {
      uploading = false;
    });
    const times: number[] = [];
    for (let round = 0; uploading; round++) {
      const run = await load(urls(200, round * 200), headers);
      if (uploading) times.push(...run.times);
    }
    await upload;
    return times;
  };
  const during = await listedDuringUpload("big-2.bin");
  // The same with the node in a process of its own (npm run node) on the same data dir.
  const duringStandalone = await listedDuringUpload("big-3.bin", await startStandaloneNode());

  console.log("");
  line(
    `SHA-256 of the big file (the agent does it before sending)`,
    `${MBs(stat.size, hashed.ms)} MB/s`,
    "",
    null,
  );
  line(
    `(a) straight to disk (fs read -> write stream)`,
    `${MBs(stat.size, disk.ms)} MB/s`,
    "",
    null,
  );
  line(
    `    plain @tus/server + FileStore, tus-js-client`,
    `${MBs(stat.size, plain.ms)} MB/s`,
    "",
    null,
  );
  const oursRate = stat.size / ours.ms;
  line(
    `    our node (agent upload code), vs disk`,
    `${MBs(stat.size, ours.ms)} MB/s`,
    ">= 80 %",
    oursRate >= (0.8 * stat.size) / disk.ms,
  );
  line(
    `    ... against plain tus (ours is ${((disk.ms / ours.ms) * 100).toFixed(0)} % of disk)`,
    `${((plain.ms / ours.ms) * 100).toFixed(0)} %`,
    ">= 100 %",
    ours.ms <= plain.ms,
  );
  const smallOk = agentRun.value.code === 0 && agentRun.value.done?.filesDone === SMALL_FILES;
  const filesPerSecond = SMALL_FILES / (agentRun.ms / 1000);
  line(
    `(b) ${SMALL_FILES.toLocaleString("en")} files of 4 KB, agent CLI, ${SMALL_STREAMS} streams${smallOk ? "" : " (FAILED)"}`,
    `${filesPerSecond.toFixed(0)} files/s`,
    ">= 500",
    smallOk && filesPerSecond >= 500,
  );
  line(
    `    ... of which the agent's own transfer time`,
    `${agentRun.value.done ? (SMALL_FILES / agentRun.value.done.seconds).toFixed(0) : "?"} files/s`,
    "",
    null,
  );
  line(`(c) reading the big file from disk`, `${MBs(stat.size, fromDisk.ms)} MB/s`, "", null);
  line(
    `    download from the node with Range (${served.value === stat.size ? "all bytes" : "SHORT"})`,
    `${MBs(stat.size, served.ms)} MB/s`,
    ">= 80 %",
    served.value === stat.size && served.ms <= fromDisk.ms / 0.8,
  );
  line(
    `    plain node:http serving the file (the loopback ceiling)`,
    `${MBs(rawServed.value, rawServed.ms)} MB/s`,
    "",
    null,
  );
  line(
    `    agent download (to disk, SHA-256 checked)`,
    `${MBs(stat.size, agentDown.ms)} MB/s`,
    "",
    null,
  );
  const p99 = percentile(baseline.times, 99);
  const p99During = during.length ? percentile(during, 99) : Number.NaN;
  line(`(d) files list p99, nothing running`, `${p99.toFixed(2)} ms`, "", null);
  line(
    `    files list p99 during a ${BIG_MB} MiB upload (${during.length} samples)`,
    `${p99During.toFixed(2)} ms`,
    "",
    null,
  );
  const rise = p99During / p99 - 1;
  line(
    `    ... rise, the node in the service's process`,
    `${(rise * 100).toFixed(0)} %`,
    "<= 20 %",
    rise <= 0.2,
  );
  const p99Standalone = duringStandalone.length ? percentile(duringStandalone, 99) : Number.NaN;
  line(
    `    files list p99 during the upload to a standalone node (${duringStandalone.length} samples)`,
    `${p99Standalone.toFixed(2)} ms`,
    "",
    null,
  );
  const riseStandalone = p99Standalone / p99 - 1;
  line(
    `    ... rise, the node in its own process`,
    `${(riseStandalone * 100).toFixed(0)} %`,
    "<= 20 %",
    riseStandalone <= 0.2,
  );
} finally {
  plainTus?.kill("SIGKILL");
  standaloneNode?.kill("SIGKILL");
  services.close();
  fs.rmSync(work, { recursive: true, force: true });
}
