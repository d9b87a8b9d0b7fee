import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_TEST } from "@/contract/events";
import { createPgPool, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import { ManualClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { createPgDatabase, freshPgDatabase } from "@/server/testing/pg-database";
import { enqueueDeliveriesPg } from "./deliveries.pg";
import type { DeliveryRow } from "./deliveries.repository";
import { PgDeliveryClaims } from "./delivery-claims.pg";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const ENDPOINTS = 30;
/** Endpoints one failure short of the rule: their receivers answer 500. */
const DYING = 5;
const DELIVERIES = 300;

// PostgreSQL only: two pools are two processes' connections, claiming the same burst at once.
describe("a burst claimed by two processes on PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let other: PgPool;
  beforeAll(async () => {
    db = await createPgDatabase();
    other = createPgPool(db.url);
  });
  afterAll(async () => {
    await other.end();
    await db.drop();
  });

  /** The dying endpoints' rows first, so the claims at the start race for their last slots. */
  const dyingRows = DYING * (DELIVERIES / ENDPOINTS);
  const endpointOf = `CASE WHEN g <= ${dyingRows} THEN 1 + (g - 1) % ${DYING}
    ELSE ${DYING + 1} + (g - ${dyingRows} - 1) % ${ENDPOINTS - DYING} END`;

  async function seed() {
    await db.pool.query("TRUNCATE workspaces CASCADE");
    const q = (sql: string) => db.pool.query(sql, [NOW]);
    await q("INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'W', $1)");
    await q(`INSERT INTO webhook_endpoints
      (id, workspace_id, kind, url, events, secret_sealed, status, failure_count, created_at)
      SELECT 'ep' || lpad(g::text, 2, '0'), 'ws', 'webhook', 'http://127.0.0.1:9/', '["*"]', 's',
        'active', CASE WHEN g <= ${DYING} THEN 19 ELSE 0 END, $1
      FROM generate_series(1, ${ENDPOINTS}) g`);
    await q(`INSERT INTO events (id, workspace_id, type, data, created_at, seq)
      SELECT 'ev' || lpad(g::text, 3, '0'), 'ws', 'member.joined', '{}', $1, g
      FROM generate_series(1, ${DELIVERIES}) g`);
    await q(`INSERT INTO webhook_deliveries
      (id, workspace_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
      SELECT 'd' || lpad(g::text, 3, '0'), 'ws', 'ep' || lpad(${endpointOf}::text, 2, '0'),
        'ev' || lpad(g::text, 3, '0'), 'member.joined', 'pending', 0, $1::bigint - ${DELIVERIES} + g, $1
      FROM generate_series(1, ${DELIVERIES}) g`);
  }

  // The race is for the first claims; several bursts give it several chances to go wrong.
  it.each([1, 2, 3, 4])(
    "burst %i: leases each delivery once at a time, loses none and keeps the dying endpoints' budgets",
    async () => {
      await seed();
      const dying = (endpointId: string) => Number(endpointId.slice(2)) <= DYING;
      const perEndpoint = DELIVERIES / ENDPOINTS;
      // Healthy endpoints deliver everything; dying ones get exactly their last failure.
      const expected = (ENDPOINTS - DYING) * perEndpoint + DYING;
      const inFlight = new Set<string>();
      const twice: string[] = [];
      let settled = 0;
      const quiet = createLogger("error", {}, () => {});

      async function claimer(claims: PgDeliveryClaims) {
        while (settled < expected) {
          const batch = await claims.claimDue(8, NOW);
          for (const d of batch) {
            if (inFlight.has(d.id)) twice.push(d.id);
            inFlight.add(d.id);
          }
          await Promise.all(batch.map((d) => attempt(claims, d)));
          // Another claimer holds what is left; its settles free the rest.
          if (batch.length === 0) await new Promise((r) => setTimeout(r, 1));
        }
      }
      async function attempt(claims: PgDeliveryClaims, d: DeliveryRow) {
        // The request takes a little while, a different while each time.
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 5)));
        // Out of the set before the lease goes: once settled, the row may be claimed again.
        inFlight.delete(d.id);
        const ok = !dying(d.endpoint_id);
        await claims.settle(
          {
            delivery: d,
            attempt: d.attempts + 1,
            manual: false,
            startedAt: NOW,
            request: { url: "http://127.0.0.1:9/", headers: {}, body: "{}" },
            outcome: {
              ok,
              statusCode: ok ? 200 : 500,
              error: ok ? null : "HTTP 500",
              durationMs: 1,
              responseBody: null,
              responseTruncated: false,
            },
          },
          NOW,
        );
        settled++;
      }

      // Connections opened beforehand, so the first claims start together rather than one by one
      // as each connection is made.
      for (const pool of [db.pool, other]) {
        const opened = await Promise.all([pool.connect(), pool.connect()]);
        for (const c of opened) c.release();
      }
      // Two claimers per pool, four loops claiming at once over two processes' connections.
      await Promise.all(
        [db.pool, db.pool, other, other].map((pool) =>
          claimer(new PgDeliveryClaims(pool, quiet, 60_000)),
        ),
      );

      expect(twice).toEqual([]);
      const { rows: attempts } = await db.pool.query<{ endpoint_id: string; n: number }>(
        `SELECT d.endpoint_id, count(*) AS n FROM webhook_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id GROUP BY d.endpoint_id ORDER BY 1`,
      );
      expect(attempts.map((r) => [r.endpoint_id, r.n])).toEqual(
        Array.from({ length: ENDPOINTS }, (_, i) => [
          `ep${String(i + 1).padStart(2, "0")}`,
          i < DYING ? 1 : perEndpoint,
        ]),
      );
      const { rows: states } = await db.pool.query(
        `SELECT status, held, count(*) AS n, count(lease_owner) AS leased,
         max(attempts) AS most FROM webhook_deliveries GROUP BY status, held ORDER BY status, held`,
      );
      expect(states).toEqual([
        { status: "delivered", held: 0, n: (ENDPOINTS - DYING) * perEndpoint, leased: 0, most: 1 },
        // The dying endpoints' one attempt each, then the rest held when the rule disabled them.
        { status: "pending", held: 1, n: DYING * perEndpoint, leased: 0, most: 1 },
      ]);
    },
  );
});

describe("events fan out to deliveries on PostgreSQL", () => {
  const pool = freshPgDatabase();

  it("makes one due delivery per subscribed active endpoint in the event's transaction, which a claim leases", async () => {
    await pool().query("INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'W', 0)");
    const endpoints: [string, string[], string][] = [
      ["a", ["member.joined"], "active"],
      ["b", ["*"], "active"],
      ["c", ["share.created"], "active"],
      ["d", ["*"], "disabled"],
    ];
    for (const [id, events, status] of endpoints) {
      await pool().query(
        `INSERT INTO webhook_endpoints (id, workspace_id, kind, url, events, secret_sealed, status, created_at)
         VALUES ($1, 'ws', 'webhook', 'http://127.0.0.1:9/', $2, 's', $3, 0)`,
        [id, JSON.stringify(events), status],
      );
    }
    const clock = new ManualClock(NOW);
    const events = new PgEventRecorder(clock);
    events.addFanOut(enqueueDeliveriesPg);
    const eventId = await events.record(pool(), "ws", "member.joined", {});
    // A change that rolls back takes its event and deliveries with it.
    await expect(
      withPgTransaction(pool(), async (c) => {
        await events.write(c, "ws", "member.joined", {});
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const testId = await events.record(pool(), "ws", WEBHOOK_TEST, { webhookId: "c" });

    const { rows } = await pool().query(
      "SELECT endpoint_id, event_id, status, next_attempt_at FROM webhook_deliveries ORDER BY id",
    );
    expect(rows).toEqual([
      { endpoint_id: "a", event_id: eventId, status: "pending", next_attempt_at: NOW },
      { endpoint_id: "b", event_id: eventId, status: "pending", next_attempt_at: NOW },
      { endpoint_id: "c", event_id: testId, status: "pending", next_attempt_at: NOW },
    ]);
    const claims = new PgDeliveryClaims(
      pool(),
      createLogger("error", {}, () => {}),
      60_000,
    );
    expect((await claims.claimDue(10, NOW)).map((d) => d.endpoint_id).sort()).toEqual([
      "a",
      "b",
      "c",
    ]);
  });
});
