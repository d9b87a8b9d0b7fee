/**
 * npm run bench:scale: one against two service processes, each held to the same CPU share
 * (bench/capped.ts says how), on one data set, with PostgreSQL beside them.
 *  1. The API mix (80 % list, 15 % search, 5 % rename) through two `ROLES=api` processes
 *     against one: requests per second, and PostgreSQL's CPU per request.
 *  2. Webhook deliveries to a receiver that answers in 50 ms through two `ROLES=workers`
 *     processes against one: deliveries per second, none lost, none twice.
 * What runs on PostgreSQL so far is listed in docs/scale-out.md: the files tree and the
 * deliveries are still in the data dir's SQLite, shared by the processes of one machine.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../src/server/env";
import { createKey } from "../src/server/modules/auth/keys.repository";
import { seedTree } from "../src/server/modules/files/bulk-seed";
import { listMembers } from "../src/server/modules/members/members.repository";
import { startService } from "../src/server/server";
import { createDatabase, startPostgres } from "../src/server/testing/postgres-server";
import { type CappedService, capMethod, postgresCpuSeconds, startCapped } from "./capped";
import { figureLine, formatMs, percentile } from "./stats";

const SHARE = 0.5;
const LANES = 16;
const SECONDS = 10;
const EVENTS = 1000;
const ENDPOINTS = 4;
const line = figureLine(58);

const pg = await startPostgres("consign-bench-pg-");
const databaseUrl = await createDatabase(pg.url, "scale");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-bench-scale-"));
const env = {
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  DEMO_CONTENT: "0",
  // A key's window holds each request's time (exact, docs/api-decisions.md); as a studio's
  // scripts would, each lane has a key of its own, and the limit is one such a key could have.
  RATE_LIMIT_PER_MINUTE: "20000",
  WEBHOOKS_ALLOW_PRIVATE: "1",
  STATIC_DIR: path.join(dataDir, "none"),
};
// The set-up process: this one, API only, never loaded; it seeds and records through its deps.
const setup = await startService(
  loadConfig({ ...env, PORT: "0", LOG_LEVEL: "warn", ROLES: "api" }),
);
if (!setup.boot.created) throw new Error("expected a fresh data dir");
const key = setup.boot.adminKey;
const ws = setup.boot.workspace.id;
const memberId = listMembers(setup.deps.db, ws)[0]!.id;
const laneKeys = Array.from(
  { length: LANES },
  () =>
    createKey(
      setup.deps.db,
      { workspaceId: ws, memberId, scopes: ["files:read", "files:write"], expiresAt: null },
      Date.now(),
    ).key,
);
await seedTree(setup.deps.files, ws, "Seed", 20_000, 1000, 0);
for (let lane = 0; lane < LANES; lane++) {
  await setup.deps.files.writeFile(ws, `Mix/lane-${lane}-a.txt`, `lane ${lane}`);
}
console.log(
  `${os.cpus().length} cores; each service process capped to ${SHARE} CPU by ${capMethod}; PostgreSQL ${databaseUrl.replace(/\/\/[^@]*@/, "//")}`,
);

const agent = new http.Agent({ keepAlive: true, maxSockets: LANES * 2 });
function request(origin: string, method: string, url: string, body?: unknown, as = key) {
  return new Promise<number>((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${origin}/v1/workspaces/${ws}${url}`,
      {
        method,
        agent,
        headers: {
          Authorization: `Bearer ${as}`,
          ...(data ? { "Content-Type": "application/json" } : {}),
        },
      },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve(res.statusCode!));
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

/** Each lane's own file's current name: renames flip it between -a and -b. */
const names = new Map<number, "a" | "b">();

/** The mix for `ms`, lanes spread over the processes as a round-robin balancer would. */
async function mix(origins: string[], ms: number) {
  const times: number[] = [];
  const errors = new Map<number, number>();
  const end = performance.now() + ms;
  let turn = 0;
  async function lane(n: number) {
    while (performance.now() < end) {
      const origin = origins[turn++ % origins.length]!;
      const r = Math.random();
      const t0 = performance.now();
      let status: number;
      if (r < 0.8) {
        const folder = `Seed/batch_${String(Math.floor(Math.random() * 20)).padStart(4, "0")}`;
        status = await request(origin, "GET", `/files?path=${folder}`, undefined, laneKeys[n]);
      } else if (r < 0.95) {
        const q = String(Math.floor(Math.random() * 10_000)).padStart(4, "0");
        status = await request(origin, "GET", `/files/search?q=${q}`, undefined, laneKeys[n]);
      } else {
        const from = names.get(n) ?? "a";
        const to = from === "a" ? "b" : "a";
        status = await request(
          origin,
          "PATCH",
          "/files",
          { path: `Mix/lane-${n}-${from}.txt`, newName: `lane-${n}-${to}.txt` },
          laneKeys[n],
        );
        if (status === 200) names.set(n, to);
      }
      if (status >= 400) errors.set(status, (errors.get(status) ?? 0) + 1);
      times.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n)));
  return { times, errors };
}

async function apiPhase(count: number) {
  const procs: CappedService[] = [];
  for (let i = 0; i < count; i++) procs.push(await startCapped({ ...env, ROLES: "api" }, SHARE, i));
  const origins = procs.map((p) => p.origin);
  await mix(origins, 2000); // warm-up: JIT, statement caches, sockets
  const pgBefore = postgresCpuSeconds(pg.pid);
  const cpuBefore = procs.map((p) => p.cpu());
  const started = performance.now();
  const { times, errors } = await mix(origins, SECONDS * 1000);
  const wall = (performance.now() - started) / 1000;
  const pgCpu = postgresCpuSeconds(pg.pid) - pgBefore;
  const cpu = procs.reduce((sum, p, i) => sum + p.cpu() - cpuBefore[i]!, 0);
  await Promise.all(procs.map((p) => p.stop()));
  return {
    rate: times.length / wall,
    times,
    errors,
    pgCpuPerRequest: pgCpu / times.length,
    busy: cpu / (wall * SHARE * count),
  };
}

const one = await apiPhase(1);
const two = await apiPhase(2);
const fmt = (n: number) => n.toFixed(0);
console.log("\nAPI mix (80 % list, 15 % search, 5 % rename), 16 lanes");
line("one process: requests/s", fmt(one.rate), "", null);
line("two processes: requests/s", fmt(two.rate), "", null);
line(
  "two against one",
  `${(two.rate / one.rate).toFixed(2)}×`,
  "≥ 1.7×",
  two.rate / one.rate >= 1.7,
);
line(
  "p50 / p99, one process",
  `${formatMs(percentile(one.times, 50), 1)} / ${formatMs(percentile(one.times, 99), 1)}`,
  "",
  null,
);
line(
  "p50 / p99, two processes",
  `${formatMs(percentile(two.times, 50), 1)} / ${formatMs(percentile(two.times, 99), 1)}`,
  "",
  null,
);
line(
  "share of the CPU cap used (one; two)",
  `${Math.round(one.busy * 100)} %; ${Math.round(two.busy * 100)} %`,
  "",
  null,
);
const errorsOf = (e: Map<number, number>) =>
  e.size === 0 ? "0" : [...e].map(([status, n]) => `${n}×${status}`).join(" ");
line(
  "errors (one; two)",
  `${errorsOf(one.errors)}; ${errorsOf(two.errors)}`,
  "0",
  one.errors.size + two.errors.size === 0,
);
line(
  "PostgreSQL CPU per request (two processes)",
  `${(two.pgCpuPerRequest * 1e6).toFixed(0)} µs`,
  "",
  null,
);
line(
  "PostgreSQL saturates one core at",
  `${fmt(1 / Math.max(two.pgCpuPerRequest, 1e-9))} req/s`,
  "",
  null,
);

// 2. Webhook deliveries.
const received = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const { id } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string };
    const k = `${req.url} ${id}`;
    received.set(k, (received.get(k) ?? 0) + 1);
    setTimeout(() => res.writeHead(200).end(), 50);
  });
});
receiver.keepAliveTimeout = 60_000;
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
const hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
for (let e = 0; e < ENDPOINTS; e++) {
  const status = await request(setup.url, "POST", "/webhooks", {
    url: `${hookBase}/in/${e}`,
    events: ["transfer.completed"],
  });
  if (status !== 201) throw new Error(`endpoint: ${status}`);
}

/**
 * From the events' commit to their last delivery, with the processes already up and idle (a
 * process's start, seconds under its cap, is not the deliveries' speed). They find the work on
 * their next poll, as they would another process's events.
 */
async function hooksPhase(count: number, round: number) {
  received.clear();
  const procs: CappedService[] = [];
  for (let i = 0; i < count; i++)
    procs.push(await startCapped({ ...env, ROLES: "workers" }, SHARE, i));
  const record = setup.deps.db.transaction(() => {
    for (let i = 0; i < EVENTS; i++) {
      setup.deps.events.record(ws, "transfer.completed", {
        transferId: `r${round}-${i}`,
        direction: "send",
        client: "agent",
        files: 1,
        bytes: 1,
      });
    }
  });
  const expected = EVENTS * ENDPOINTS;
  const cpuBefore = procs.map((p) => p.cpu());
  const started = performance.now();
  record();
  while (received.size < expected && performance.now() - started < 300_000) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const wall = (performance.now() - started) / 1000;
  const cpu = procs.reduce((sum, p, i) => sum + p.cpu() - cpuBefore[i]!, 0);
  await new Promise((r) => setTimeout(r, 1000)); // a late second attempt would land here
  await Promise.all(procs.map((p) => p.stop()));
  const twice = [...received.values()].filter((n) => n > 1).length;
  return {
    rate: received.size / wall,
    lost: expected - received.size,
    twice,
    cpuPerDelivery: cpu / Math.max(received.size, 1),
    // How much of their CPU share the processes used: near 100 % is CPU-bound, far below waits.
    busy: cpu / (wall * SHARE * count),
  };
}

const h1 = await hooksPhase(1, 1);
const h2 = await hooksPhase(2, 2);
console.log(
  `\nWebhook deliveries (${EVENTS} events × ${ENDPOINTS} endpoints, receiver answers in 50 ms; from the events' commit)`,
);
line("one process: deliveries/s", fmt(h1.rate), "", null);
line("two processes: deliveries/s", fmt(h2.rate), "", null);
line("two against one", `${(h2.rate / h1.rate).toFixed(2)}×`, "≥ 1.9×", h2.rate / h1.rate >= 1.9);
line(
  "CPU per delivery (one; two)",
  `${(h1.cpuPerDelivery * 1e3).toFixed(2)} ms; ${(h2.cpuPerDelivery * 1e3).toFixed(2)} ms`,
  "",
  null,
);
line(
  "share of the CPU cap used (one; two)",
  `${Math.round(h1.busy * 100)} %; ${Math.round(h2.busy * 100)} %`,
  "",
  null,
);
line("lost (one, two)", `${h1.lost}, ${h2.lost}`, "0", h1.lost + h2.lost === 0);
line("delivered twice (one, two)", `${h1.twice}, ${h2.twice}`, "0", h1.twice + h2.twice === 0);

agent.destroy();
receiver.close();
await setup.stop();
await pg.stop();
fs.rmSync(dataDir, { recursive: true, force: true });
