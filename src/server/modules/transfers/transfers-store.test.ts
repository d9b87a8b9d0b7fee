import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Transfer } from "@/contract/transfers";
import { moveRows } from "@/server/db/pg/move-rows";
import { ManualClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { EventRecorder } from "@/server/modules/events/events.repository";
import { refusal } from "@/server/testing/engine-suites";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { JobRunner } from "@/server/workers/job-runner";
import { keyedConfig } from "./start-store.seed";
import { SqliteTransfersStore, type TransfersStore } from "./transfers-store";
import { PgTransfersStore } from "./transfers-store.pg";
import { NOW, pathItems, seedSqlite, T0 } from "./transfers-store.seed";

/** One engine's store, a statement run on its database, and what its units recorded and queued. */
interface Engine {
  store: TransfersStore;
  exec(sql: string): Promise<void>;
  rows(sql: string): Promise<Record<string, unknown>[]>;
}

const EVENTS = "SELECT type, data FROM events ORDER BY seq";
const JOBS = "SELECT kind, payload, unique_key, status, max_attempts FROM jobs ORDER BY kind";
/** The events the units recorded, in order. */
const eventsOf = async (e: Engine) =>
  (await e.rows(EVENTS)).map((r) => ({
    type: r.type as string,
    data: JSON.parse(r.data as string) as Record<string, unknown>,
  }));
const silent = createLogger("silent");
const config = keyedConfig();

function sqliteEngine(): () => Engine {
  let seeded: ReturnType<typeof seedSqlite>;
  let store: SqliteTransfersStore;
  beforeAll(() => {
    seeded = seedSqlite();
    const clock = new ManualClock(NOW);
    const { db } = seeded;
    const jobs = new JobRunner(db, clock, silent);
    store = new SqliteTransfersStore({
      db,
      clock,
      events: new EventRecorder(db, clock),
      jobs,
      config: config(),
    });
  });
  afterAll(() => seeded.close());
  return () => ({
    store,
    exec: async (sql) => void seeded.db.exec(sql),
    rows: async (sql) => seeded.db.prepare(sql).all() as Record<string, unknown>[],
  });
}

/** The same rows moved from an identically seeded SQLite file, in an en-US database. */
function postgresEngine(): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  let store: PgTransfersStore;
  beforeAll(async () => {
    const source = seedSqlite();
    await moveRows(source.db, pool());
    const clock = new ManualClock(NOW);
    // The runner only shapes the job the unit inserts in its own transaction.
    const jobs = new JobRunner(source.db, clock, silent);
    store = new PgTransfersStore(pool(), clock, new PgEventRecorder(clock), jobs, config());
    source.close();
  });
  return () => ({
    store,
    exec: async (sql) => void (await pool().query(sql)),
    rows: async (sql) => (await pool().query(sql)).rows,
  });
}

const ids = (list: Transfer[]) => list.map((t) => t.id);

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the transfers store on $engine", ({ use }) => {
  const open = use();

  it("lists newest first, ties by id, each filter when given, with three paths an item", async () => {
    const { store } = open();
    const all = await store.listTransfers("ws", { limit: 50 });
    expect(ids(all)).toEqual(["t4", "t3", "t2", "t1"]);
    expect(all[3]!.paths).toEqual(pathItems(3, "shots"));
    expect([all[3]!.pathsCount, all[3]!.usageBytes, all[2]!.usageBytes]).toEqual([120, 705, 0]);
    expect(ids(await store.listTransfers("ws", { limit: 2 }))).toEqual(["t4", "t3"]);
    expect(ids(await store.listTransfers("ws", { direction: "receive", limit: 50 }))).toEqual([
      "t2",
    ]);
    expect(ids(await store.listTransfers("ws", { active: true, limit: 50 }))).toEqual([
      "t3",
      "t2",
      "t1",
    ]);
    expect(ids(await store.listTransfers("ws", { status: "cancelled", limit: 50 }))).toEqual([
      "t4",
    ]);
    expect(await store.listTransfers("other", { limit: 50 })).toEqual([]);
  });

  it("shows a transfer with its first hundred paths, and 404s another workspace's or none", async () => {
    const { store } = open();
    const t1 = await store.getTransfer("ws", "t1");
    expect(t1).toMatchObject({
      id: "t1",
      direction: "send",
      status: "queued",
      filesTotal: 2,
      destinationRoot: "Été",
      deliverTo: ["deliveries"],
      usageBytes: 705,
      createdAt: new Date(T0 + 1).toISOString(),
      startedAt: null,
    });
    expect(t1.paths).toEqual(pathItems(100, "shots"));
    for (const [ws, id] of [
      ["other", "t1"],
      ["ws", "t9"],
    ])
      expect(await refusal(store.getTransfer(ws!, id!))).toEqual({
        status: 404,
        code: "not_found",
        message: `Transfer ${id} was not found`,
        details: { transferId: id },
      });
  });

  it("refuses a move the state machine has not, a counter going back, and completing what the node did not", async () => {
    const e = open();
    const { store } = e;
    const report = { filesDone: 0, bytesDone: 0 };
    const bad = await refusal(store.updateTransfer("ws", "t4", { ...report, status: "running" }));
    expect(bad).toMatchObject({ status: 400, code: "validation_failed" });
    expect(bad.details).toMatchObject({
      issues: [{ code: "invalid_transition", field: "status" }],
    });
    await store.updateTransfer("ws", "t2", { status: "running", filesDone: 1, bytesDone: 500 });
    expect(
      await refusal(store.updateTransfer("ws", "t2", { ...report, status: "running" })),
    ).toMatchObject({
      status: 400,
      code: "validation_failed",
      details: { issues: [{ code: "counter_backwards" }] },
    });
    const notServed = await refusal(
      store.updateTransfer("ws", "t2", { status: "completed", filesDone: 2, bytesDone: 1000 }),
    );
    expect(notServed.details).toEqual({
      bytesServed: 0,
      bytesDone: 1000,
      issues: [
        {
          field: "status",
          message: "The node has served 0 of the 1000 bytes reported",
          code: "not_served",
        },
      ],
    });
    const notCommitted = await refusal(
      store.updateTransfer("ws", "t3", { status: "completed", filesDone: 1, bytesDone: 10 }),
    );
    expect(notCommitted.details).toEqual({
      filesCommitted: 0,
      filesTotal: 1,
      uploading: 1,
      issues: [
        {
          field: "status",
          message: "The node has committed 0 of 1 files (1 still uploading)",
          code: "not_committed",
        },
      ],
    });
    expect(
      await refusal(store.updateTransfer("ws", "t9", { ...report, status: "running" })),
    ).toEqual({
      status: 404,
      code: "not_found",
      message: "Transfer t9 was not found",
      details: { transferId: "t9" },
    });
    expect(await eventsOf(e)).toEqual([]);
  });

  it("completes a send once the node committed it: its event, its deliverTo job, in its unit", async () => {
    const e = open();
    const { store, exec } = e;
    await exec(`UPDATE transfers SET token_used_at = ${T0 + 30_000} WHERE id = 't1'`);
    const running = await store.updateTransfer("ws", "t1", {
      status: "running",
      filesDone: 1,
      bytesDone: 40,
      rateKbps: 12.5,
    });
    expect([running.status, running.startedAt, running.rateKbps]).toEqual([
      "running",
      new Date(T0 + 30_000).toISOString(),
      12.5,
    ]);
    await exec("UPDATE transfers SET files_committed = 2, bytes_committed = 80 WHERE id = 't1'");
    const done = await store.updateTransfer("ws", "t1", {
      status: "completed",
      filesDone: 2,
      bytesDone: 80,
    });
    expect(done).toMatchObject({
      status: "completed",
      finishedAt: new Date(NOW).toISOString(),
      filesDone: 2,
      bytesDone: 80,
      filesCommitted: 2,
    });
    expect(done.avgRateKbps).toBeCloseTo((80 * 8) / 1000 / ((NOW - (T0 + 30_000)) / 1000), 9);
    const [completed] = await eventsOf(e);
    expect(completed!.type).toBe("transfer.completed");
    expect(completed!.data).toMatchObject({ transferId: "t1", files: 2, bytes: 80 });
    expect((completed!.data.paths as string[]).slice(0, 2)).toEqual([
      "Été/shots/f0.exr",
      "Été/shots/f1.exr",
    ]);
    expect((completed!.data.paths as string[]).length).toBe(100);
    expect(await e.rows(JOBS)).toEqual([
      {
        kind: "transfers.deliver",
        payload: '{"transferId":"t1"}',
        unique_key: "transfers.deliver:t1",
        status: "queued",
        max_attempts: 5,
      },
    ]);
  });

  it("fails a send with its uploads cancelled and one event; a cancel records none", async () => {
    const e = open();
    const { store } = e;
    const failed = await store.updateTransfer("ws", "t3", {
      status: "failed",
      filesDone: 0,
      bytesDone: 0,
      errorCode: "disk",
      errorMessage: "Disk full",
    });
    expect([failed.status, failed.errorCode, failed.finishedAt]).toEqual([
      "failed",
      "disk",
      new Date(NOW).toISOString(),
    ]);
    await store.updateTransfer("ws", "t2", { status: "cancelled", filesDone: 1, bytesDone: 500 });
    expect((await eventsOf(e)).slice(1)).toEqual([
      {
        type: "transfer.failed",
        data: {
          transferId: "t3",
          direction: "send",
          client: "agent",
          filesDone: 0,
          bytesDone: 0,
          errorCode: "disk",
          errorMessage: "Disk full",
        },
      },
    ]);
    expect(await e.rows("SELECT id, status, updated_at FROM transfer_uploads")).toEqual([
      { id: "up_1", status: "cancelled", updated_at: NOW },
    ]);
    // Once reported, a terminal transfer records no second event.
    await e.exec("UPDATE transfers SET status = 'running' WHERE id = 't3'");
    await store.updateTransfer("ws", "t3", { status: "failed", filesDone: 0, bytesDone: 0 });
    expect(await eventsOf(e)).toHaveLength(2);
  });
});

describe("PostgreSQL and SQLite on the same rows", () => {
  const sqlite = sqliteEngine();
  const postgres = postgresEngine();

  it("answer every list and record alike, to the field", async () => {
    const [a, b] = [sqlite().store, postgres().store];
    const queries = [
      { limit: 50 },
      { limit: 1 },
      { direction: "send" as const, limit: 50 },
      { active: true, direction: "receive" as const, limit: 50 },
    ];
    for (const q of queries)
      expect(await b.listTransfers("ws", q)).toEqual(await a.listTransfers("ws", q));
    for (const id of ["t1", "t2", "t3", "t4"])
      expect(await b.getTransfer("ws", id)).toEqual(await a.getTransfer("ws", id));
  });
});
