import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "@/contract/operations";
import { moveRows } from "@/server/db/pg/move-rows";
import { createDeps } from "@/server/deps";
import { loadConfig } from "@/server/env";
import { ManualClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
import { refusal, withoutIds } from "@/server/testing/engine-suites";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { createOperation } from "./operations.service";
import type { OperationsStore } from "./operations-store";
import { PgOperationsStore } from "./operations-store.pg";

const T0 = Date.parse("2026-05-01T08:00:00Z");
const NOW = T0 + 60_000;

/**
 * Four jobs in `ws` planned by the service a second apart (a move of two items, a copy, and two
 * that ended), and one in `other`: the reads' and the cancel's material.
 */
async function seedSqlite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-operations-store-"));
  const clock = new ManualClock(T0);
  const deps = createDeps(loadConfig({ DATA_DIR: dir }), { clock, log: createLogger("silent") });
  const workspace = deps.db.prepare(
    "INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, 0)",
  );
  workspace.run("ws", "W");
  workspace.run("other", "O");
  for (const p of ["a/Été.txt", "a/sub/x.exr", "a/sub/y.exr", "b/keep.txt", "dest/.keep"])
    await deps.files.writeFile("ws", p, p, { modifiedAt: T0 });
  await deps.files.writeFile("other", "o/x.txt", "x", { modifiedAt: T0 });
  const plan = (ws: string, kind: "move" | "copy", paths: string[], destination: string) => {
    clock.advance(1000);
    return createOperation(deps, ws, { kind, paths, destination }).id;
  };
  const ids = {
    move: plan("ws", "move", ["a/Été.txt", "a/sub"], "dest"),
    copy: plan("ws", "copy", ["b/keep.txt"], "dest"),
    completed: plan("ws", "copy", ["b"], "dest"),
    failed: plan("ws", "move", ["b/keep.txt"], "a"),
    other: plan("other", "copy", ["o/x.txt"], ""),
  };
  const end = deps.db.prepare(
    "UPDATE file_operations SET status = ?, finished_at = ? WHERE id = ?",
  );
  end.run("completed", T0 + 9000, ids.completed);
  end.run("failed", T0 + 9000, ids.failed);
  return {
    deps,
    ids,
    close() {
      deps.db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Seeded = Awaited<ReturnType<typeof seedSqlite>>;

interface Engine {
  store: OperationsStore;
  ids: Seeded["ids"];
  rows(sql: string): Promise<Record<string, unknown>[]>;
}

function sqliteEngine(): () => Engine {
  let seeded: Seeded;
  beforeAll(async () => {
    seeded = await seedSqlite();
    (seeded.deps.clock as ManualClock).set(NOW);
  });
  afterAll(() => seeded.close());
  return () => ({
    store: seeded.deps.operationsStore,
    ids: seeded.ids,
    rows: async (sql) => seeded.deps.db.prepare(sql).all() as Record<string, unknown>[],
  });
}

/** The same rows moved from an identically seeded SQLite file, in an en-US database. */
function postgresEngine(): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  let ids: Seeded["ids"];
  let store: PgOperationsStore;
  beforeAll(async () => {
    const seeded = await seedSqlite();
    ids = seeded.ids;
    await moveRows(seeded.deps.db, pool());
    seeded.close();
    store = new PgOperationsStore(pool(), new ManualClock(NOW));
  });
  return () => ({ store, ids, rows: async (sql) => (await pool().query(sql)).rows });
}

const STATE = "SELECT id, status, error, finished_at FROM file_operations ORDER BY id";
const transcripts: Record<string, unknown[]> = {};
const idsOf = (list: Operation[]) => list.map((o) => o.id);

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the operations store on $engine", ({ engine, use }) => {
  const open = use();
  const log: unknown[] = [];
  transcripts[engine] = log;
  const kept = <T>(answer: T) => {
    log.push(answer);
    return answer;
  };

  it("lists a workspace's jobs newest first, each with its items; active ones when asked", async () => {
    const { store, ids } = open();
    const all = kept(await store.listOperations("ws", { limit: 50 }));
    expect(idsOf(all)).toEqual([ids.failed, ids.completed, ids.copy, ids.move]);
    expect(all[3]!.items.map((i) => [i.path, i.type, i.files])).toEqual([
      ["a/Été.txt", "file", 1],
      ["a/sub", "folder", 2],
    ]);
    expect(idsOf(kept(await store.listOperations("ws", { active: true, limit: 50 })))).toEqual([
      ids.copy,
      ids.move,
    ]);
    expect(idsOf(await store.listOperations("ws", { limit: 1 }))).toEqual([ids.failed]);
    expect(idsOf(await store.listOperations("nobody", { limit: 50 }))).toEqual([]);
  });

  it("reads one job, and 404s another workspace's or an unknown one", async () => {
    const { store, ids } = open();
    expect(kept(await store.getOperation("ws", ids.move))).toMatchObject({
      kind: "move",
      status: "queued",
      destination: "dest",
      filesTotal: 3,
      createdAt: new Date(T0 + 1000).toISOString(),
    });
    expect(kept(await refusal(store.getOperation("ws", ids.other)))).toEqual({
      status: 404,
      code: "not_found",
      message: `Job ${ids.other} was not found`,
      details: { jobId: ids.other },
    });
  });

  it("cancels a queued job once; refuses a completed or failed one's cancel", async () => {
    const { store, ids, rows } = open();
    const cancelled = kept(await store.cancelOperation("ws", ids.copy));
    expect(cancelled).toMatchObject({
      status: "cancelled",
      finishedAt: new Date(NOW).toISOString(),
    });
    expect(await store.cancelOperation("ws", ids.copy)).toEqual(cancelled);
    for (const id of [ids.completed, ids.failed])
      expect(kept(await refusal(store.cancelOperation("ws", id)))).toMatchObject({
        status: 400,
        details: { issues: [{ field: "jobId", code: "not_cancellable" }] },
      });
    expect(kept(await refusal(store.cancelOperation("other", ids.move)))).toMatchObject({
      status: 404,
    });
    log.push(await rows(STATE));
  });
});

describe("moves and copies on PostgreSQL and SQLite", () => {
  it("answer and leave the rows alike", () => {
    expect(transcripts.SQLite!.length).toBeGreaterThan(8);
    expect(withoutIds(transcripts.PostgreSQL)).toEqual(withoutIds(transcripts.SQLite));
  });
});
