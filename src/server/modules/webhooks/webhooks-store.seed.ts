import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Db } from "@/server/db/database";
import { moveRows } from "@/server/db/pg/move-rows";
import { ManualClock } from "@/server/lib/clock";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { EventRecorder } from "@/server/modules/events/events.repository";
import { tempSqlite } from "@/server/testing/engine-suites";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { enqueueDeliveriesPg } from "./deliveries.pg";
import { enqueueDeliveries } from "./deliveries.repository";
import { SecretBox } from "./secret-box";
import { SqliteWebhooksStore, type WebhooksStore } from "./webhooks-store";
import { PgWebhooksStore } from "./webhooks-store.pg";

/* The rows webhooks-store.test.ts runs its contract on, and its two engines over them. */

export const T0 = Date.parse("2026-06-01T09:00:00Z");
export const NOW = T0 + 600_000;
export const SECRETS: Record<string, string> = {
  e1: `whsec_${"a".repeat(32)}`,
  e2: `whsec_${"b".repeat(32)}`,
  h1: `whsec_${"c".repeat(32)}`,
  x1: `whsec_${"d".repeat(32)}`,
};

/** One key for both engines, so a secret sealed by either opens with it. */
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-webhooks-store-"));
export const box = new SecretBox(path.join(keyDir, "webhook-secrets.key"));
/** The box the stores seal and open with; a test swaps in a broken one for a while. */
export const keys = { box };

// e1 takes everything; e2 was disabled by the twenty-failure rule (its deliveries held); h1 is a
// platform's REST hook; x1 is another workspace's.
const ENDPOINTS = [
  ["e1", "ws", "webhook", "https://a.example/hook", "Main", '["*"]', "active", 0, T0 + 50, T0],
  [
    "e2",
    "ws",
    "webhook",
    "https://b.example/",
    null,
    '["share.created","share.revoked"]',
    "disabled",
    20,
    T0 + 60,
    T0 + 1,
  ],
  [
    "h1",
    "ws",
    "rest_hook",
    "https://zap.example/h",
    null,
    '["share.created"]',
    "active",
    0,
    null,
    T0 + 2,
  ],
  ["x1", "ws2", "webhook", "https://x.example/", null, '["*"]', "active", 0, null, T0 + 3],
] as const;

const EVENTS = [
  ["ev1", "ws", "share.created", { shareId: "s1" }, T0 + 10],
  ["ev2", "ws", "member.joined", { memberId: "m1" }, T0 + 20],
  ["ev3", "ws", "share.created", { shareId: "s2", title: "Ölm — 東京" }, T0 + 30],
  ["ev4", "ws", "share.revoked", { shareId: "s1" }, T0 + 40],
  ["ev5", "ws2", "share.created", { shareId: "s9" }, T0 + 45],
] as const;

// id, endpoint, event, status, attempts, next attempt, held, last code, last error, delivered at
const DELIVERIES = [
  ["d1", "e1", "ev1", "delivered", 1, T0 + 10, 0, 200, null, T0 + 11],
  ["d2", "e1", "ev2", "failed", 2, T0 + 20, 0, 500, "HTTP 500", null],
  ["d3", "e1", "ev3", "pending", 0, T0 + 3_600_000, 0, null, null, null],
  ["d4", "e2", "ev3", "pending", 0, T0 + 30, 1, null, null, null],
  ["d5", "e2", "ev4", "pending", 1, T0 + 100, 1, 502, "HTTP 502", null],
  ["d6", "x1", "ev5", "pending", 0, T0 + 45, 0, null, null, null],
] as const;

// delivery, attempt, manual, code, error
const ATTEMPTS = [
  ["d1", 1, 0, 200, null],
  ["d2", 1, 0, 500, "HTTP 500"],
  ["d2", 2, 1, 500, "HTTP 500"],
  ["d5", 1, 0, 502, "HTTP 502"],
] as const;

function seed(db: Db) {
  const run = (sql: string, ...rows: readonly (readonly unknown[])[]) => {
    const s = db.prepare(sql);
    for (const r of rows) s.run(...r);
  };
  run(
    "INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)",
    ["ws", "Studio", T0],
    ["ws2", "Other", T0],
  );
  run(
    `INSERT INTO webhook_endpoints (id, workspace_id, kind, url, description, events, status,
       failure_count, last_delivery_at, created_at, secret_sealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ...ENDPOINTS.map((e) => [...e, box.seal(SECRETS[e[0]]!)]),
  );
  run(
    "INSERT INTO events (id, workspace_id, type, data, created_at, seq) VALUES (?, ?, ?, ?, ?, ?)",
    ...EVENTS.map(([id, ws, type, data, at], i) => [id, ws, type, JSON.stringify(data), at, i + 1]),
  );
  const wsOf = (endpoint: string) => ENDPOINTS.find((e) => e[0] === endpoint)![1];
  const typeOf = (event: string) => EVENTS.find((e) => e[0] === event)![2];
  const createdOf = (event: string) => EVENTS.find((e) => e[0] === event)![4];
  run(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, attempts, next_attempt_at,
       held, last_status_code, last_error, delivered_at, workspace_id, event_type, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ...DELIVERIES.map((d) => [...d, wsOf(d[1]), typeOf(d[2]), createdOf(d[2])]),
  );
  run(
    `INSERT INTO webhook_attempts (delivery_id, attempt, manual, status_code, error, url,
       request_headers, request_body, started_at, duration_ms, response_body, response_truncated)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
    ...ATTEMPTS.map((a) => [
      ...a,
      `https://sent.example/${a[0]}/${a[1]}`,
      JSON.stringify({ "X-Attempt": String(a[1]) }),
      `{"attempt":${a[1]}}`,
      T0 + 100 * a[1],
      12,
      a[3] === 200 ? "ok" : "nope",
    ]),
  );
}

function seeded() {
  const s = tempSqlite("consign-webhooks-store-");
  seed(s.db);
  return s;
}

/** One engine's store over the seeded rows, and a read of any table, as both engines read it. */
export interface Engine {
  store: WebhooksStore;
  rows(sql: string): Promise<Record<string, unknown>[]>;
}

function sqliteEngine(): () => Engine {
  let s: ReturnType<typeof seeded>;
  let store: WebhooksStore;
  beforeAll(() => {
    s = seeded();
    const clock = new ManualClock(NOW);
    const events = new EventRecorder(s.db, clock);
    events.addFanOut(enqueueDeliveries);
    store = new SqliteWebhooksStore(s.db, clock, events, () => keys.box);
  });
  afterAll(() => s.close());
  return () => ({
    store,
    rows: async (sql) => s.db.prepare(sql).all() as Record<string, unknown>[],
  });
}

/** The same rows, ids included, in a database whose default collation is en-US. */
function postgresEngine(): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  let store: WebhooksStore;
  beforeAll(async () => {
    const source = seeded();
    await moveRows(source.db, pool());
    source.close();
    const clock = new ManualClock(NOW);
    const events = new PgEventRecorder(clock);
    events.addFanOut(enqueueDeliveriesPg);
    store = new PgWebhooksStore(pool(), clock, events, () => keys.box);
  });
  return () => ({ store, rows: async (sql) => (await pool().query(sql)).rows });
}

afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }));

/** Each suite runs once per engine: `describe.each(ENGINES)`. */
export const ENGINES = [
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
];
