import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BulkJob, CreateBulkJobBody } from "@/contract/operations";
import { moveRows } from "@/server/db/pg/move-rows";
import { ManualClock } from "@/server/lib/clock";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { refusal, withoutIds } from "@/server/testing/engine-suites";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { batchRunner } from "./bulk-selection";
import type { BulkStore } from "./bulk-store";
import { PgBulkStore } from "./bulk-store.pg";
import { NOW, type Seeded, seedSqlite, trashId, WS } from "./bulk-store.seed";

/*
 * The bulk store's contract: one suite run on each engine over identically seeded rows. Each
 * test checks its answers, refusals and events; every answer, the events, the queued jobs and
 * the rows afterwards are then compared across the engines, ids replaced by their order of
 * appearance (trash ids and job ids are made by each engine).
 */

interface Engine {
  store: BulkStore;
  seeded: Seeded;
  rows(sql: string): Promise<Record<string, unknown>[]>;
}

function sqliteEngine(): () => Engine {
  let seeded: Seeded;
  beforeAll(async () => {
    seeded = await seedSqlite();
  });
  afterAll(() => seeded.close());
  return () => ({
    store: seeded.deps.bulkStore,
    seeded,
    rows: async (sql) => seeded.deps.db.prepare(sql).all() as Record<string, unknown>[],
  });
}

/** The same rows moved from an identically seeded SQLite file, in an en-US database. */
function postgresEngine(): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  let seeded: Seeded;
  let store: PgBulkStore;
  beforeAll(async () => {
    seeded = await seedSqlite();
    await moveRows(seeded.deps.db, pool());
    const clock = new ManualClock(NOW);
    // The runner only shapes the job the unit inserts in its own transaction.
    store = new PgBulkStore(pool(), clock, new PgEventRecorder(clock), seeded.deps.jobs, {
      trashRetentionDays: seeded.deps.config.trashRetentionDays,
    });
  });
  afterAll(() => seeded.close());
  return () => ({ store, seeded, rows: async (sql) => (await pool().query(sql)).rows });
}

/** The rows the units write: blobs left unreferenced are collected by SQLite's batch only. */
const STATE = {
  entries: `SELECT path, name, sort_key, is_file, size, sha256, folder_count, file_count, revision,
      CASE WHEN trash_id IS NULL THEN 1 ELSE 0 END AS live, modified_at
    FROM entries WHERE workspace_id = 'ws' ORDER BY path, live`,
  trash:
    "SELECT id, path, name, is_file, size_bytes, deleted_at, purge_at FROM trash_items ORDER BY id",
  jobs: "SELECT * FROM bulk_jobs ORDER BY id",
  jobTrash: "SELECT job_id, trash_id FROM bulk_job_trash ORDER BY job_id, trash_id",
  blobs: "SELECT sha256, size, ref_count FROM blobs WHERE ref_count > 0 ORDER BY sha256",
  revision: "SELECT value FROM revision_counter",
  queued: "SELECT kind, payload, unique_key, status, max_attempts FROM jobs ORDER BY id",
};
const EVENTS = `SELECT type, data FROM events WHERE created_at >= ${NOW} ORDER BY seq`;

const transcripts: Record<string, unknown[]> = {};

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the bulk store on $engine", ({ engine, use }) => {
  const open = use();
  const log: unknown[] = [];
  transcripts[engine] = log;
  let seen = 0;
  /** The events recorded since the last call, kept for the comparison. */
  const recorded = async (e: Engine) => {
    const all = (await e.rows(EVENTS)).map((r) => ({
      type: r.type,
      data: JSON.parse(r.data as string),
    }));
    const fresh = all.slice(seen);
    seen = all.length;
    log.push({ recorded: fresh });
    return fresh;
  };
  const kept = <T>(answer: T) => {
    log.push(answer);
    return answer;
  };
  const start = async (e: Engine, body: CreateBulkJobBody) =>
    kept(await e.store.createBulkJob(WS, body));
  /** Runs the job's batches of four to its end; the job as it ended, and how many batches. */
  const drain = async (e: Engine, id: string) => {
    const runner = batchRunner(4);
    let batches = 1;
    while (await e.store.runBatch(runner, id)) batches++;
    return { job: kept(await e.store.getBulkJob(WS, id)), batches };
  };
  const live = async (e: Engine, folder: string) =>
    (
      await e.rows(
        `SELECT name FROM entries WHERE workspace_id = 'ws' AND trash_id IS NULL
         AND parent_id = (SELECT id FROM entries WHERE path = '${folder}' AND trash_id IS NULL)
         `,
      )
    )
      .map((r) => r.name as string)
      .sort();
  let folderJob: BulkJob;

  it("starts a job queued with its runner's job; refuses an unknown folder or a file", async () => {
    const e = open();
    folderJob = await start(e, {
      action: "trash",
      selection: { folder: "big", allExcept: ["_tmp", "E\u0301te\u0301.txt", "nothing"] },
    });
    expect(folderJob).toMatchObject({ kind: "bulk", status: "queued", total: null, done: 0 });
    expect(await e.rows(STATE.queued)).toEqual([
      {
        kind: "files.bulk",
        payload: JSON.stringify({ bulkJobId: folderJob.id }),
        unique_key: `bulk:${folderJob.id}`,
        status: "queued",
        max_attempts: 5,
      },
    ]);
    const unknown = { action: "trash" as const, selection: { folder: "nope", allExcept: [] } };
    expect(kept(await refusal(e.store.createBulkJob(WS, unknown)))).toMatchObject({
      status: 404,
      details: { path: "nope" },
    });
    const file = { action: "delete" as const, selection: { folder: "p/a.txt", allExcept: [] } };
    expect(kept(await refusal(e.store.createBulkJob(WS, file)))).toMatchObject({
      status: 400,
      details: { issues: [{ field: "selection.folder", code: "not_a_folder" }] },
    });
    expect(await recorded(e)).toEqual([]);
  });

  it("trashes a folder's children in batches of four, in byte order, but the names excepted", async () => {
    const e = open();
    const { job, batches } = await drain(e, folderJob.id);
    expect(job).toMatchObject({ status: "completed", total: 11, done: 11, failed: 0 });
    expect(batches).toBe(3);
    expect(await live(e, "big")).toEqual(["_tmp", "Été.txt"]);
    const [event] = await recorded(e);
    expect(event).toMatchObject({ type: "file.trashed", data: { count: 11, jobId: job.id } });
    expect(event!.data.paths.slice(0, 3)).toEqual(["big/Dir 9", "big/dir 10", "big/Édition"]);
  });

  it("trashes listed paths, one inside a listed folder going with it, a missing one failing", async () => {
    const e = open();
    const started = await start(e, {
      action: "trash",
      selection: { paths: ["p/a.txt", "p/shots", "p/shots/one.exr", "p/missing.txt"] },
    });
    const { job } = await drain(e, started.id);
    expect(job).toMatchObject({ status: "completed", total: 3, done: 2, failed: 1 });
    expect(job.failures).toEqual([
      { target: "p/missing.txt", code: "not_found", message: '"p/missing.txt" was not found' },
    ]);
    expect(await live(e, "p")).toEqual(["keep.txt"]);
    expect((await recorded(e))[0]!.data.paths).toEqual(["p/a.txt", "p/shots"]);
  });

  it("undoes the folder's trash once, restoring exactly what it trashed", async () => {
    const e = open();
    const undo = kept(await e.store.undoBulkJob(WS, folderJob.id));
    expect(undo).toMatchObject({ action: "restore", status: "queued", undoOf: folderJob.id });
    expect(kept(await refusal(e.store.undoBulkJob(WS, folderJob.id)))).toMatchObject({
      status: 400,
      message: expect.stringContaining(`already undone by ${undo.id}`),
    });
    const { job } = await drain(e, undo.id);
    expect(job).toMatchObject({ status: "completed", total: 11, done: 11, renamed: [] });
    expect(await live(e, "big")).toHaveLength(13);
    expect((await e.store.getBulkJob(WS, folderJob.id)).undoneBy).toBe(undo.id);
    expect((await recorded(e))[0]).toMatchObject({ type: "file.restored", data: { count: 11 } });
  });

  it("restores listed items: a taken name renamed, parents made again, a file in the way failing", async () => {
    const e = open();
    const [taken, way, kid] = ["h/taken.txt", "h/way/x.txt", "h/lost/deep/kid.txt"].map((p) =>
      trashId(e.seeded, p),
    );
    const gone = "0000000000aaaaaaaaaaaaaaaa";
    const started = await start(e, {
      action: "restore",
      selection: { itemIds: [taken!, way!, kid!, gone, taken!] },
    });
    const { job } = await drain(e, started.id);
    expect(job).toMatchObject({ status: "completed", total: 4, done: 2, failed: 2 });
    expect(job.renamed).toEqual([{ itemId: taken, path: "h/taken (restored).txt" }]);
    expect(job.failures.map((f) => [f.target, f.code])).toEqual([
      [gone, "not_found"],
      [way, "file_in_the_way"],
    ]);
    expect(await live(e, "h/lost/deep")).toEqual(["kid.txt"]);
    expect((await recorded(e))[0]!.data.paths).toHaveLength(2);
  });

  it("restores by a filter folding ASCII letters only, then purges the rest but one", async () => {
    const e = open();
    const accented = await start(e, {
      action: "restore",
      selection: { filter: { q: "ÉBENE", folder: "f" }, allExcept: [] },
    });
    // "f/ébene.txt" would match were the needle lowered in a language's collation.
    expect((await drain(e, accented.id)).job).toMatchObject({ total: 0, done: 0 });
    const ascii = await start(e, {
      action: "restore",
      selection: { filter: { q: "EBENE", folder: "f" }, allExcept: [] },
    });
    expect((await drain(e, ascii.id)).job).toMatchObject({ total: 2, done: 2 });
    expect(await live(e, "f")).toEqual(["Ebene.txt", "sub"]);
    const keep = trashId(e.seeded, "f/autre.txt");
    const purge = await start(e, { action: "purge", selection: { filter: {}, allExcept: [keep] } });
    const { job } = await drain(e, purge.id);
    expect(job).toMatchObject({ status: "completed", done: job.total, failed: 0 });
    expect((await e.rows(STATE.trash)).map((r) => r.path)).toEqual(["f/autre.txt"]);
    expect((await recorded(e)).map((r) => r.type)).toEqual(["file.restored", "file.deleted"]);
  });

  it("deletes listed paths for good, releasing their blobs' references", async () => {
    const e = open();
    const started = await start(e, { action: "delete", selection: { paths: ["d", "p/keep.txt"] } });
    expect((await drain(e, started.id)).job).toMatchObject({ total: 2, done: 2 });
    expect(await live(e, "")).not.toContain("d");
    expect(await recorded(e)).toMatchObject([{ type: "file.deleted", data: { count: 2 } }]);
  });

  it("cancels a queued job once; refuses an ended job's cancel and a restore's undo", async () => {
    const e = open();
    const started = await start(e, { action: "trash", selection: { paths: ["h/way"] } });
    const cancelled = kept(await e.store.cancelBulkJob(WS, started.id));
    expect(cancelled).toMatchObject({ status: "cancelled", undoable: false });
    expect(await e.store.cancelBulkJob(WS, started.id)).toEqual(cancelled);
    expect(await e.store.runBatch(batchRunner(4), started.id)).toBe(false);
    expect(kept(await refusal(e.store.cancelBulkJob(WS, folderJob.id)))).toMatchObject({
      message: "The job is already completed",
      details: { issues: [{ code: "not_cancellable" }] },
    });
    const restore = (await e.store.listBulkJobs(WS, false, 50)).find((j) => j.undoOf)!;
    expect(kept(await refusal(e.store.undoBulkJob(WS, restore.id)))).toMatchObject({
      message: "Only a trash job can be undone",
    });
    expect(kept(await refusal(e.store.getBulkJob("other", started.id)))).toMatchObject({
      status: 404,
      details: { jobId: started.id },
    });
    expect(await live(e, "h")).toContain("way");
  });

  it("runs no batch without the runner's lease, and ends a job its runner gave up on", async () => {
    const e = open();
    const started = await start(e, { action: "trash", selection: { paths: ["h/way"] } });
    const lease = { runnerJobId: "elsewhere", owner: "another" };
    expect(await e.store.runBatch(batchRunner(4), started.id, lease)).toBe(false);
    expect((await e.store.getBulkJob(WS, started.id)).status).toBe("queued");
    await e.store.failBulkJob(started.id, "boom");
    expect(kept(await e.store.getBulkJob(WS, started.id))).toMatchObject({
      status: "failed",
      error: "boom",
    });
    const list = kept(await e.store.listBulkJobs(WS, false, 50));
    expect(list[0]!.id).toBe(started.id);
    expect(await e.store.listBulkJobs(WS, true, 50)).toEqual([]);
    expect(await recorded(e)).toEqual([]);
    log.push({ state: await Promise.all(Object.values(STATE).map((sql) => e.rows(sql))) });
  });
});

describe("bulk jobs on PostgreSQL and SQLite", () => {
  it("answer, record, queue and leave the rows alike, revisions included", () => {
    const [sqlite, postgres] = [transcripts.SQLite!, transcripts.PostgreSQL!];
    expect(sqlite.length).toBeGreaterThan(30);
    expect(withoutIds(postgres)).toEqual(withoutIds(sqlite));
  });
});
