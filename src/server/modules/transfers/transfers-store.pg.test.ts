import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveRows } from "@/server/db/pg/move-rows";
import { createPgPool, type PgPool } from "@/server/db/pg/pool";
import { ApiError } from "@/server/lib/api-error";
import { ManualClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { createPgDatabase, pgFromSqlite } from "@/server/testing/pg-database";
import { JobRunner } from "@/server/workers/job-runner";
import { keyedConfig, N1, pgStartStore, seedTree } from "./start-store.seed";
import { PgTransfersStore } from "./transfers-store.pg";
import { NOW, pathItems, seedSqlite, T0, transfer } from "./transfers-store.seed";

const RACES = 20;
const config = keyedConfig();

// PostgreSQL only: SQLite's BEGIN IMMEDIATE already runs one report at a time.
describe("progress reports on PostgreSQL from two processes", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let other: PgPool;
  let stores: PgTransfersStore[];
  beforeAll(async () => {
    db = await createPgDatabase();
    other = createPgPool(db.url);
    const source = seedSqlite((add) => {
      for (let i = 0; i < RACES; i++)
        add(
          transfer(`r${i}`, T0 + 10 + i, { files_total: 1, deliver_to: '["out"]' }),
          pathItems(1, "race"),
        );
    });
    source.db.exec(
      "UPDATE transfers SET status = 'running', files_committed = 1 WHERE id LIKE 'r%'",
    );
    await moveRows(source.db, db.pool);
    const clock = new ManualClock(NOW);
    const jobs = new JobRunner(source.db, clock, createLogger("silent"));
    stores = [db.pool, other].map(
      (p) => new PgTransfersStore(p, clock, new PgEventRecorder(clock), jobs, config()),
    );
    source.close();
  });
  afterAll(async () => {
    await other.end();
    await db.drop();
  });

  it("completes a transfer once when two processes report it at once: one event, one job, the other refused", async () => {
    const report = { status: "completed" as const, filesDone: 1, bytesDone: 10 };
    const outcomes = await Promise.all(
      Array.from({ length: RACES }, (_, i) =>
        Promise.allSettled(stores.map((s) => s.updateTransfer("ws", `r${i}`, report))),
      ),
    );
    for (const pair of outcomes) {
      expect(pair.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const refused = pair.find((o) => o.status === "rejected")!.reason;
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).details).toMatchObject({
        issues: [{ code: "invalid_transition" }],
      });
    }
    const count = async (sql: string) => (await db.pool.query(sql)).rows[0].n;
    expect(
      await count("SELECT count(*)::int AS n FROM events WHERE type = 'transfer.completed'"),
    ).toBe(RACES);
    expect(
      await count("SELECT count(*)::int AS n FROM jobs WHERE kind = 'transfers.deliver'"),
    ).toBe(RACES);
  });
});

// SQLite's BEGIN IMMEDIATE serializes every create; on PostgreSQL the workspace's lock alone
// would not keep two workspaces' creates from both taking a node's last place.
describe("creates from two processes and two workspaces on PostgreSQL", () => {
  const pg = pgFromSqlite(seedTree);
  const full = keyedConfig({ dataNodes: [N1], nodeMaxTransfers: 2 });

  it("give a node's one free place to exactly one of them; the rest are node_busy", async () => {
    const { pool, other } = pg();
    const shaper = seedTree();
    const stores = [pool, other].map((p) => pgStartStore(p, full(), shaper.db));
    shaper.close();
    // Every connection open beforehand, so the creates overlap rather than queue on connecting.
    await Promise.all(
      [pool, other].flatMap((p) => Array.from({ length: 10 }, () => p.query("SELECT 1"))),
    );
    const send = {
      direction: "send" as const,
      client: "agent" as const,
      streams: 4,
      priority: "normal" as const,
      deliverTo: [],
      paths: [{ source: "/l/a", destination: "in/a" }],
    };
    const results = await Promise.allSettled(
      Array.from({ length: RACES }, (_, i) =>
        stores[i % 2]!.createTransfer(
          {
            workspaceId: i % 4 < 2 ? "ws" : "ws2",
            keyId: null,
            memberId: null,
            origin: "http://x",
          },
          send,
        ),
      ),
    );
    const busy = results.filter(
      (r) =>
        r.status === "rejected" && r.reason instanceof ApiError && r.reason.code === "node_busy",
    );
    expect([results.length - busy.length, busy.length]).toEqual([1, RACES - 1]);
    const { rows } = await pool.query(
      "SELECT count(*) AS n FROM transfers WHERE node = $1 AND status = 'queued'",
      [N1],
    );
    expect(rows[0].n).toBe(2);
  });
});
