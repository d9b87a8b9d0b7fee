import { createHash } from "node:crypto";
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { CreatedTransfer, CreateTransferBody } from "@/contract/transfers";
import { openDatabase } from "@/server/db/database";
import { createDeps } from "@/server/deps";
import type { Config, S3Settings } from "@/server/env";
import { type Clock, ManualClock } from "@/server/lib/clock";
import { transfersRouter } from "@/server/modules/transfers/transfers.index";
import { expectBody } from "@/server/testing/expect-body";
import { freshBucket } from "@/server/testing/s3";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { createNodeHandler, nodeOrigins, withNode } from "./node.app";
import type { NodeDeps } from "./node-deps";

/** A node's HTTP server on a free loopback port; `base` is its `/node/v1`. */
async function listenNode(deps: NodeDeps) {
  const server: Server = createServer(
    withNode(createNodeHandler(deps, nodeOrigins(deps.config)), (_req, res) => {
      res.statusCode = 404;
      res.end();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/node/v1`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Another data node on the test service's database, as a second node process would be: its own
 * connection, its own data dir (so its own empty staging folder), the service's signing key.
 */
export async function startSecondNode(t: TestApp) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-node2-"));
  fs.copyFileSync(path.join(t.dir, "node-token.key"), path.join(dir, "node-token.key"));
  const db = openDatabase(path.join(t.dir, "consign.db"));
  const deps = createDeps({ ...t.deps.config, dataDir: dir }, { clock: t.clock, db });
  const node = await listenNode(deps);
  return {
    deps,
    base: node.base,
    async close() {
      await node.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const sha256Hex = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");
export const sha256B64 = (b: Buffer | string) => createHash("sha256").update(b).digest("base64");

/** tus Upload-Metadata: keys with base64 values. */
export const tusMetadata = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString("base64")}`)
    .join(",");

/**
 * The test service in-process (createTestApp) with its data node listening on a real port, and
 * helpers that speak tus and the node's download routes with plain fetch.
 */
export async function startNodeTest(opts: { clock?: Clock; config?: Partial<Config> } = {}) {
  const t = await createTestApp(opts);
  const node = await listenNode(t.deps);
  const { base } = node;

  const api = t.client(transfersRouter).workspaces[":workspaceId"].transfers;
  async function createTransfer(json: CreateTransferBody): Promise<CreatedTransfer> {
    return expectBody(await api.$post({ param: t.ws, json }), 201);
  }

  const auth = (token: string, extra: Record<string, string> = {}) => ({
    Authorization: `Bearer ${token}`,
    "Tus-Resumable": "1.0.0",
    ...extra,
  });

  /** POST uploads (creation, or creation-with-upload when `body` is given). */
  function create(
    token: string,
    o: {
      path: string;
      length: number;
      sha256?: string;
      body?: Buffer;
      headers?: Record<string, string>;
    },
  ) {
    const meta: Record<string, string> = { path: o.path };
    if (o.sha256) meta.sha256 = o.sha256;
    return fetch(`${base}/uploads`, {
      method: "POST",
      headers: auth(token, {
        "Upload-Length": String(o.length),
        "Upload-Metadata": tusMetadata(meta),
        ...(o.body ? { "Content-Type": "application/offset+octet-stream" } : {}),
        ...o.headers,
      }),
      body: o.body && new Uint8Array(o.body),
    });
  }

  function patch(
    location: string,
    token: string,
    offset: number,
    body: Uint8Array | ReadableStream,
    headers: Record<string, string> = {},
  ) {
    return fetch(location, {
      method: "PATCH",
      headers: auth(token, {
        "Upload-Offset": String(offset),
        "Content-Type": "application/offset+octet-stream",
        ...headers,
      }),
      body,
      duplex: "half",
    } as RequestInit);
  }

  const head = (location: string, token: string, headers: Record<string, string> = {}) =>
    fetch(location, { method: "HEAD", headers: auth(token, headers) });

  const remove = (location: string, token: string) =>
    fetch(location, { method: "DELETE", headers: auth(token) });

  /** Creates an upload and sends the whole file in one PATCH; returns the final response. */
  async function upload(
    token: string,
    path: string,
    bytes: Buffer,
    headers: Record<string, string> = {},
  ) {
    const created = await create(token, {
      path,
      length: bytes.length,
      sha256: sha256Hex(bytes),
      headers,
    });
    if (created.status !== 201) return created;
    return patch(created.headers.get("location")!, token, 0, bytes, headers);
  }

  const download = (token: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/files?path=${encodeURIComponent(path)}`, {
      headers: { Authorization: `Bearer ${token}`, ...headers },
    });

  const uploads = () =>
    t.deps.db.prepare("SELECT * FROM transfer_uploads ORDER BY created_at").all() as {
      id: string;
      status: string;
      path: string;
      offset: number;
      error: string | null;
    }[];

  return {
    t,
    base,
    createTransfer,
    create,
    patch,
    head,
    remove,
    upload,
    download,
    uploads,
    async close() {
      await node.close();
      await t.close();
    },
  };
}

export type NodeTest = Awaited<ReturnType<typeof startNodeTest>>;

/**
 * Before each test, the node test with its bytes in a fresh bucket of the test S3 server
 * (metadata in SQLite) and a manual clock; closed after it.
 */
export function nodeOnS3EachTest() {
  const s = {} as { n: NodeTest; clock: ManualClock; bucket: S3Settings };
  beforeEach(async () => {
    s.clock = new ManualClock(Date.now());
    s.bucket = await freshBucket();
    s.n = await startNodeTest({
      clock: s.clock,
      config: { blobStore: { kind: "s3", s3: s.bucket } },
    });
  });
  afterEach(() => s.n.close());
  return s;
}
