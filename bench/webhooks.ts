/**
 * npm run bench:webhooks: the webhook figures against the real service on a temp data dir.
 *  1. commit of an event -> first attempt arriving at a local receiver, at 200 events/s for 10 s
 *  2. files list p99 with no deliveries pending vs with 10,000 pending (slow receiver, worked on)
 *  3. events page of 100, p50
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { testConfig } from "../src/server/env";
import { startService } from "../src/server/server";
import { figureLine, formatMs, percentile } from "./stats";

const RATE = 200;
const SECONDS = 10;
const PENDING = 10_000;

const ms = (n: number) => formatMs(n, 2);
const line = figureLine(46);

async function receiver(onRequest: (body: string, res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => onRequest(Buffer.concat(chunks).toString("utf8"), res));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-bench-webhooks-"));
const svc = await startService(
  testConfig(dir, {
    port: 0,
    webhooksAllowPrivate: true,
    rateLimit: { limit: 1e9, windowMs: 60_000 },
  }),
);
if (!svc.boot.created) throw new Error("expected a fresh data dir");
const key = svc.boot.adminKey;
const ws = svc.boot.workspace.id;
const api = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(`${svc.url}/v1/workspaces/${ws}${p}`, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body ? { "Content-Type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
};
const { deps } = svc;

// 1. Commit -> first attempt.
const committed = new Map<string, number>();
const latencies: number[] = [];
const fast = await receiver((body, res) => {
  const at = performance.now();
  const { id } = JSON.parse(body) as { id: string };
  const t0 = committed.get(id);
  if (t0 !== undefined) latencies.push(at - t0);
  res.writeHead(204).end();
});
await api("POST", "/webhooks", { url: `${fast.url}/in`, events: ["transfer.completed"] });
const sendAt = async (count: number, keep: boolean) => {
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const id = deps.events.record(ws, "transfer.completed", {
      transferId: `t${i}`,
      direction: "send",
      client: "agent",
      files: 1,
      bytes: 1024,
    });
    // record() returns after its transaction committed (autocommit): that is the commit time.
    if (keep) committed.set(id, performance.now());
  }
  await new Promise((r) => setTimeout(r, 500));
};
await sendAt(RATE, false); // warm-up: JIT, sockets, statement cache
await sendAt(RATE * SECONDS, true);

// 2. Files list p99 without and with 10,000 pending deliveries.
let listPath = "/files?path=";
if ((await api("GET", listPath)).status !== 200) listPath = "";
const listUrl = listPath ? `${svc.url}/v1/workspaces/${ws}${listPath}` : `${svc.url}/v1/auth/key`;
const measureList = async (n: number) => {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(listUrl, { headers: { Authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    xs.push(performance.now() - t0);
  }
  return xs;
};
// Settle after phase 1 (WAL checkpoint, GC) so the baseline is not the noisier of the two.
await new Promise((r) => setTimeout(r, 1000));
await measureList(2000);
const baseline = await measureList(5000);

// Slow but successful, so the deliveries stay pending and the dispatcher keeps working them.
const slow = await receiver((_body, res) => setTimeout(() => res.writeHead(200).end(), 2000));
await api("POST", "/webhooks", { url: `${slow.url}/in`, events: ["share.created"] });
const batch = deps.db.transaction((n: number) => {
  for (let i = 0; i < n; i++) deps.events.record(ws, "share.created", { shareId: `s${i}` });
});
for (let done = 0; done < PENDING; done += 500) batch(500);
const pending = () =>
  deps.db
    .prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'")
    .pluck()
    .get() as number;
const pendingBefore = pending();
await measureList(500);
const loaded = await measureList(5000);
const pendingAfter = pending();

// 3. Events page of 100.
const ids = deps.db.prepare("SELECT id FROM events ORDER BY seq").pluck().all() as string[];
const pageTimes: number[] = [];
for (let i = 0; i < 1000; i++) {
  const after = ids[Math.floor(Math.random() * (ids.length - 100))]!;
  const t0 = performance.now();
  const res = await fetch(`${svc.url}/v1/workspaces/${ws}/events?after=${after}&limit=100`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  const page = (await res.json()) as { events: unknown[] };
  pageTimes.push(performance.now() - t0);
  if (page.events.length !== 100) throw new Error("short page");
}

console.log(`\nWebhooks benchmark (${os.cpus()[0]?.model ?? "cpu"}, node ${process.version})\n`);
const p50 = percentile(latencies, 50);
const p99 = percentile(latencies, 99);
line(
  `commit -> first attempt p50 (${latencies.length} at ${RATE}/s)`,
  ms(p50),
  "<= 10 ms",
  p50 <= 10,
);
line("commit -> first attempt p99", ms(p99), "<= 100 ms", p99 <= 100);
const b99 = percentile(baseline, 99);
const l99 = percentile(loaded, 99);
const rise = ((l99 - b99) / b99) * 100;
const listName = listPath ? "GET W/files?path=" : "GET /v1/auth/key (files list absent)";
line(`${listName} p99, nothing pending`, ms(b99), "", true);
line(`${listName} p99, ${pendingBefore}->${pendingAfter} pending`, ms(l99), "", true);
line("files list p99 rise with 10,000 pending", `${rise.toFixed(1)} %`, "<= 20 %", rise <= 20);
const e50 = percentile(pageTimes, 50);
line("events page of 100 p50 (HTTP round trip)", ms(e50), "<= 5 ms", e50 <= 5);
console.log(
  `(events page p99 ${ms(percentile(pageTimes, 99))}; list p50 ${ms(percentile(baseline, 50))} -> ${ms(percentile(loaded, 50))})`,
);

fast.server.closeAllConnections();
slow.server.closeAllConnections();
fast.server.close();
slow.server.close();
await svc.stop();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
