import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { serviceProcesses } from "@/server/testing/service-process";
import { sha256Hex, tusMetadata } from "./node-testing";

const service = serviceProcesses("consign-node-kill-");
const downloads = serviceProcesses("consign-node-kill-dl-");
const nodes: ChildProcess[] = [];
afterAll(() => {
  for (const c of nodes) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  service.close();
  downloads.close();
});

/** `npm run node` on the service's data dir, on a free port; resolves with its base URL. */
function startNode(of = service): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/node/main.ts"], {
    cwd: of.root,
    env: { ...of.env, NODE_PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  nodes.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`node exited with ${code}: ${out}`)));
    child.stdout!.on("data", (d) => {
      out += String(d);
      const base = /data node at (http:\/\/\S+)/.exec(out)?.[1];
      if (base) resolve({ child, base });
    });
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });

it("kill -9 of a standalone node mid-upload, then a restart: HEAD resumes, the file is committed once with the right bytes", async () => {
  const first = await service.start();
  const key = first.key!;
  const call = (method: string, url: string, body?: unknown) =>
    service.api(first.origin, key, method, url, body);
  const me = await call("GET", "/v1/auth/key");
  const w = (suffix: string) => `/v1/workspaces/${me.json.workspace.id}${suffix}`;
  const created = await call("POST", w("/transfers"), {
    direction: "send",
    paths: [{ source: "/local/big.bin", destination: "Inbox/big.bin" }],
    fileCount: 1,
    totalBytes: 8 * 1024 * 1024,
  });
  expect(created.status).toBe(201);
  const { token } = created.json.transferSpec;
  const tus = (extra: Record<string, string>) => ({
    Authorization: `Bearer ${token}`,
    "Tus-Resumable": "1.0.0",
    ...extra,
  });
  const bytes = randomBytes(8 * 1024 * 1024);
  const listed = async () =>
    (await call("GET", w("/files?path=Inbox"))).json?.items?.map((i: { name: string }) => i.name) ??
    [];

  let node = await startNode();
  const post = await fetch(`${node.base}/uploads`, {
    method: "POST",
    headers: tus({
      "Upload-Length": String(bytes.length),
      "Upload-Metadata": tusMetadata({ path: "Inbox/big.bin", sha256: sha256Hex(bytes) }),
    }),
  });
  expect(post.status).toBe(201);
  const uploadId = new URL(post.headers.get("location")!).pathname.split("/").pop()!;
  const at = (base: string) => `${base}/uploads/${uploadId}`;
  const patch = (base: string, offset: number, body: Uint8Array | ReadableStream) =>
    fetch(at(base), {
      method: "PATCH",
      headers: tus({
        "Upload-Offset": String(offset),
        "Content-Type": "application/offset+octet-stream",
      }),
      body,
      duplex: "half",
    } as RequestInit);
  const half = bytes.length / 2;
  expect((await patch(node.base, 0, bytes.subarray(0, half))).status).toBe(204);

  // The second half goes slowly; the node is killed while it arrives.
  const staging = path.join(service.dataDir, "blobs", "staging", uploadId);
  const slow = new ReadableStream({
    async pull(c) {
      c.enqueue(bytes.subarray(half, half + 1024 * 1024));
      await new Promise(() => {}); // never more
    },
  });
  const cut = patch(node.base, half, slow).catch(() => null);
  while (fs.statSync(staging).size <= half) await new Promise((r) => setTimeout(r, 10));
  await killed(node.child);
  await cut;
  expect(await listed()).toEqual([]);

  node = await startNode();
  const head = await fetch(at(node.base), { method: "HEAD", headers: tus({}) });
  expect(head.status).toBe(200);
  const offset = Number(head.headers.get("upload-offset"));
  expect(offset).toBeGreaterThan(half);
  expect(offset).toBeLessThan(bytes.length);
  expect(await listed()).toEqual([]);
  const rest = await patch(node.base, offset, bytes.subarray(offset));
  expect(rest.status).toBe(204);
  expect(rest.headers.get("consign-file-sha256")).toBe(sha256Hex(bytes));
  // A client that never saw that answer sends its last request again: the same answer, no second commit.
  const again = await patch(node.base, bytes.length, new Uint8Array(0));
  expect(again.status).toBe(204);
  expect(again.headers.get("consign-file-sha256")).toBe(sha256Hex(bytes));

  expect(await listed()).toEqual(["big.bin"]);
  const db = service.open(true);
  try {
    const entries = db
      .prepare("SELECT sha256, size FROM entries WHERE path = 'Inbox/big.bin'")
      .all() as { sha256: string; size: number }[];
    expect(entries).toEqual([{ sha256: sha256Hex(bytes), size: bytes.length }]);
    const blob = path.join(
      service.dataDir,
      "blobs",
      entries[0]!.sha256.slice(0, 2),
      entries[0]!.sha256.slice(2, 4),
      entries[0]!.sha256,
    );
    expect(fs.readFileSync(blob).equals(bytes)).toBe(true);
    expect(db.prepare("SELECT files_committed, bytes_committed FROM transfers").get()).toEqual({
      files_committed: 1,
      bytes_committed: bytes.length,
    });
    expect(db.prepare("SELECT count(*) FROM usage_records").pluck().get()).toBe(1);
    expect(fs.existsSync(staging)).toBe(false);
  } finally {
    db.close();
  }
}, 60_000);

it("kill -9 of a node mid-download, then a restart: the share download resumed with Range completes, and usage counts what was served", async () => {
  const first = await downloads.start();
  const key = first.key!;
  const call = (method: string, url: string, body?: unknown) =>
    downloads.api(first.origin, key, method, url, body);
  const me = await call("GET", "/v1/auth/key");
  const w = (suffix: string) => `/v1/workspaces/${me.json.workspace.id}${suffix}`;
  let node = await startNode(downloads);

  // A 24 MiB file, sent through the node.
  const bytes = randomBytes(24 * 1024 * 1024);
  const send = await call("POST", w("/transfers"), {
    direction: "send",
    paths: [{ source: "/local/reel.mov", destination: "Out/reel.mov" }],
  });
  const sendAuth = {
    Authorization: `Bearer ${send.json.transferSpec.token}`,
    "Tus-Resumable": "1.0.0",
  };
  const created = await fetch(`${node.base}/uploads`, {
    method: "POST",
    headers: {
      ...sendAuth,
      "Upload-Length": String(bytes.length),
      "Upload-Metadata": tusMetadata({ path: "Out/reel.mov" }),
      "Content-Type": "application/offset+octet-stream",
    },
    body: bytes,
  });
  expect(created.status).toBe(201);

  const shared = await call("POST", w("/shares"), { paths: ["Out/reel.mov"] });
  expect(shared.status).toBe(201);
  const link = new URL(shared.json.url).pathname.split("/").pop()!;
  const pub = (suffix: string, body: unknown) =>
    fetch(`${first.origin}/v1/public/shares/${link}${suffix}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const started = await pub("/downloads", { paths: ["Out/reel.mov"] });
  expect(started.status).toBe(201);
  const { transferId, transferSpec } = (await started.json()) as {
    transferId: string;
    transferSpec: { token: string };
  };
  const get = (base: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/files?path=Out%2Freel.mov`, {
      headers: { Authorization: `Bearer ${transferSpec.token}`, ...headers },
    });

  // The recipient reads 12 MiB, then the node dies under it.
  const res = await get(node.base);
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const got: Buffer[] = [];
  let received = 0;
  while (received < 12 * 1024 * 1024) {
    const { value } = await reader.read();
    got.push(Buffer.from(value!));
    received += value!.length;
  }
  await killed(node.child);
  await reader.cancel().catch(() => null);

  // The engine resumes from what it holds.
  node = await startNode(downloads);
  const rest = await get(node.base, { Range: `bytes=${received}-` });
  expect(rest.status).toBe(206);
  const whole = Buffer.concat([...got, Buffer.from(await rest.arrayBuffer())]);
  expect(whole.equals(bytes)).toBe(true);

  const done = await pub(`/downloads/${transferId}/complete`, {
    files: [{ path: "Out/reel.mov", sha256: sha256Hex(whole) }],
  });
  expect(await done.json()).toMatchObject({ verified: true });
  const db = downloads.open(true);
  try {
    const row = db
      .prepare("SELECT status, bytes_served FROM transfers WHERE id = ?")
      .get(transferId) as { status: string; bytes_served: number };
    expect(row.status).toBe("completed");
    const usage = db
      .prepare("SELECT sum(bytes) FROM usage_records WHERE transfer_id = ?")
      .pluck()
      .get(transferId) as number;
    // Once per byte sent: what reached the dead node's socket but not the recipient was sent again.
    expect(usage).toBe(row.bytes_served);
    expect(usage).toBeGreaterThanOrEqual(bytes.length);
    expect(usage).toBeLessThan(2 * bytes.length);
  } finally {
    db.close();
  }
}, 60_000);
