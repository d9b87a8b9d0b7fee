import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/database";
import { createLogger } from "@/server/lib/logger";
import { type DeliveryClaims, SqliteDeliveryClaims } from "./delivery-claims";

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

/** A workspace, one endpoint with `failures` consecutive failures and `n` due deliveries to it. */
async function seed(e: Engine, failures: number, n: number, endpointId = "ep1") {
  await e.exec(
    "INSERT INTO workspaces (id, name, created_at) SELECT 'ws', 'W', $1 WHERE NOT EXISTS (SELECT 1 FROM workspaces WHERE id = 'ws')",
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

describe.each([["SQLite", sqliteEngine]])("delivery claims on %s", (_name, makeEngine) => {
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
});
