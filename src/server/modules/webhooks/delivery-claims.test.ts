import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/database";
import type { PgPool } from "@/server/db/pg/pool";
import { createLogger } from "@/server/lib/logger";
import { freshPgDatabase } from "@/server/testing/pg-database";
import type { DeliveryRow } from "./deliveries.repository";
import { type DeliveryClaims, SqliteDeliveryClaims } from "./delivery-claims";
import { PgDeliveryClaims } from "./delivery-claims.pg";
import type { FinishedAttempt } from "./delivery-outcome";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const LEASE_MS = 60_000;
const quiet = createLogger("error", {}, () => {});

/** One engine's database, seeded with plain SQL (`$n` parameters) and claimed through the port. */
interface Engine {
  exec(sql: string, params?: unknown[]): Promise<void>;
  rows<R>(sql: string, params?: unknown[]): Promise<R[]>;
  /** A claimer of its own, as another process would have (its own owner, its own connection). */
  claims(): DeliveryClaims;
  close(): Promise<void>;
}

async function sqliteEngine(): Promise<Engine> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-claims-"));
  const file = path.join(dir, "consign.db");
  const opened = [openDatabase(file)];
  const db = opened[0]!;
  const positional = (sql: string) => sql.replace(/\$\d+/g, "?");
  return {
    async exec(sql, params = []) {
      db.prepare(positional(sql)).run(...params);
    },
    async rows<R>(sql: string, params: unknown[] = []) {
      return db.prepare(positional(sql)).all(...params) as R[];
    },
    claims() {
      const own = openDatabase(file);
      opened.push(own);
      return new SqliteDeliveryClaims(own, quiet, LEASE_MS);
    },
    async close() {
      for (const d of opened) d.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function pgEngine(pool: PgPool): Engine {
  return {
    async exec(sql, params = []) {
      await pool.query(sql, params);
    },
    async rows<R>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as R[];
    },
    claims: () => new PgDeliveryClaims(pool, quiet, LEASE_MS),
    // One database per file: each test starts from an empty one.
    async close() {
      await pool.query("TRUNCATE workspaces CASCADE");
    },
  };
}

/** Called in the suite's describe: PostgreSQL makes one database there for all its tests. */
const engines: [string, () => () => Promise<Engine>][] = [
  ["SQLite", () => sqliteEngine],
  [
    "PostgreSQL",
    () => {
      const pool = freshPgDatabase();
      return async () => pgEngine(pool());
    },
  ],
];

/** A workspace, one endpoint with `failures` consecutive failures and `n` due deliveries to it. */
async function seed(e: Engine, failures: number, n: number, endpointId = "ep1") {
  await e.exec(
    "INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'W', $1) ON CONFLICT DO NOTHING",
    [NOW],
  );
  await e.exec(
    `INSERT INTO webhook_endpoints (id, workspace_id, kind, url, events, secret_sealed, status, failure_count, created_at)
     VALUES ($1, 'ws', 'webhook', 'http://127.0.0.1:9/hook', '["*"]', 'sealed', 'active', $2, $3)`,
    [endpointId, failures, NOW],
  );
  for (let i = 0; i < n; i++) {
    const id = `${endpointId}-${String(i).padStart(4, "0")}`;
    await e.exec(
      "INSERT INTO events (id, workspace_id, type, data, created_at, seq) VALUES ($1, 'ws', 'member.joined', '{}', $2, $3)",
      [
        `ev-${id}`,
        NOW,
        (await e.rows<{ n: number }>("SELECT count(*) AS n FROM events"))[0]!.n + 1,
      ],
    );
    await e.exec(
      `INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
       VALUES ($1, 'ws', $2, $3, 'member.joined', 'pending', 0, $4, $5)`,
      [id, endpointId, `ev-${id}`, NOW - n + i, NOW],
    );
  }
}

const liveLeases = async (e: Engine) =>
  (
    await e.rows<{ n: number }>(
      "SELECT count(*) AS n FROM webhook_deliveries WHERE lease_expires_at > $1",
      [NOW],
    )
  )[0]!.n;

const attemptOf = (delivery: DeliveryRow, ok: boolean, manual = false): FinishedAttempt => ({
  delivery,
  attempt: delivery.attempts + 1,
  manual,
  startedAt: NOW,
  request: {
    url: "http://127.0.0.1:9/hook",
    headers: { "content-type": "application/json" },
    body: "{}",
  },
  outcome: {
    ok,
    statusCode: ok ? 200 : 500,
    error: ok ? null : "HTTP 500",
    durationMs: 5,
    responseBody: ok ? "ok" : "nope",
    responseTruncated: false,
  },
});

const delivery = async (e: Engine, id: string) =>
  (await e.rows<DeliveryRow>("SELECT * FROM webhook_deliveries WHERE id = $1", [id]))[0]!;
const endpointState = async (e: Engine) =>
  (
    await e.rows<{ status: string; failure_count: number }>(
      "SELECT status, failure_count FROM webhook_endpoints WHERE id = 'ep1'",
    )
  )[0];
const attemptCount = async (e: Engine) =>
  (await e.rows<{ n: number }>("SELECT count(*) AS n FROM webhook_attempts"))[0]!.n;

describe.each(engines)("delivery claims on %s", (_name, setup) => {
  const makeEngine = setup();
  let e: Engine;
  beforeEach(async () => {
    e = await makeEngine();
  });
  afterEach(async () => {
    await e.close();
  });

  it("two claimers never lease more than an endpoint's remaining failures between them", async () => {
    await seed(e, 19, 5);
    const a = e.claims();
    const b = e.claims();
    expect(await a.claimDue(10, NOW)).toHaveLength(1);
    expect(await b.claimDue(10, NOW)).toHaveLength(0);
    expect(await a.claimDue(10, NOW)).toHaveLength(0);
    expect(await liveLeases(e)).toBe(1);
  });

  it("counts a lease from another claimer until it expires", async () => {
    await seed(e, 17, 5);
    const a = e.claims();
    const b = e.claims();
    expect(await a.claimDue(2, NOW)).toHaveLength(2);
    expect(await b.claimDue(10, NOW)).toHaveLength(1);
    expect(await b.claimDue(10, NOW + LEASE_MS - 1)).toHaveLength(0);
    // A claimer that died: its leases lapse and the budget comes back with them.
    expect(await b.claimDue(10, NOW + LEASE_MS)).toHaveLength(3);
  });

  it("settles a failure and frees its lease in one step, so the budget holds across claimers", async () => {
    await seed(e, 18, 5);
    const a = e.claims();
    const b = e.claims();
    const [first, second] = await a.claimDue(10, NOW);
    expect(second).toBeDefined();
    await a.settle(attemptOf(first!, false), NOW);
    expect(await delivery(e, first!.id)).toMatchObject({
      status: "pending",
      attempts: 1,
      next_attempt_at: NOW + 60_000,
      lease_owner: null,
      last_status_code: 500,
    });
    expect(await endpointState(e)).toEqual({ status: "active", failure_count: 19 });
    // Nineteen failures and one attempt in flight: nothing is left to claim.
    expect(await b.claimDue(10, NOW)).toHaveLength(0);
    await a.settle(attemptOf(second!, false), NOW);
    expect(await endpointState(e)).toEqual({ status: "disabled", failure_count: 20 });
    const held = await e.rows<{ id: string }>(
      "SELECT id FROM webhook_deliveries WHERE held = 1 ORDER BY id",
    );
    expect(held).toHaveLength(5);
    expect(await b.claimDue(10, NOW + 86_400_000)).toHaveLength(0);
    expect(await attemptCount(e)).toBe(2);
  });

  it("writes nothing for an attempt whose lease was taken over", async () => {
    await seed(e, 0, 1);
    const a = e.claims();
    const b = e.claims();
    const [mine] = await a.claimDue(1, NOW);
    const [theirs] = await b.claimDue(1, NOW + LEASE_MS);
    expect(theirs?.id).toBe(mine!.id);
    await a.settle(attemptOf(mine!, true), NOW + LEASE_MS);
    expect(await delivery(e, mine!.id)).toMatchObject({ status: "pending", lease_owner: b.owner });
    expect(await attemptCount(e)).toBe(0);
    await b.settle(attemptOf(theirs!, true), NOW + LEASE_MS);
    expect(await delivery(e, mine!.id)).toMatchObject({
      status: "delivered",
      attempts: 1,
      delivered_at: NOW + LEASE_MS,
      lease_owner: null,
    });
    expect(await attemptCount(e)).toBe(1);
  });

  it("leases one delivery for a manual retry once at a time, outside the budget, and counts it", async () => {
    await seed(e, 18, 3);
    const a = e.claims();
    const b = e.claims();
    const [scheduled] = await a.claimDue(1, NOW);
    expect(scheduled?.id).toBe("ep1-0000");
    expect(await b.claimOne("ep1-0000", NOW)).toBeNull();
    const manual = await b.claimOne("ep1-0001", NOW);
    expect(manual).toMatchObject({ id: "ep1-0001", lease_owner: b.owner });
    expect(await b.claimOne("ep1-0001", NOW)).toBeNull();
    // Two failures left, one scheduled and one manual attempt in flight: nothing to claim.
    expect(await a.claimDue(10, NOW)).toHaveLength(0);
    await b.settle(attemptOf(manual!, true, true), NOW);
    expect(await delivery(e, "ep1-0001")).toMatchObject({ status: "delivered", lease_owner: null });
    expect(await a.claimDue(10, NOW)).toHaveLength(1);
  });
});
