import { describe, expect, it } from "vitest";
import type { CreateBulkJobBody } from "@/contract/operations";
import { BULK_EXCEPT_MAX, BULK_IDS_MAX, BULK_PATHS_MAX } from "@/contract/operations";
import type { ManualClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
import { eventsRouter } from "@/server/modules/events/events.index";
import { seedEntries } from "@/server/modules/files/bulk-seed";
import { expectBody, expectError, okBody } from "@/server/testing/expect-body";
import { folderNames, listFolder, listTrash, writeFile } from "@/server/testing/files-client";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { JobRunner } from "@/server/workers/job-runner";
import { bulkRouter } from "./bulk.index";
import { registerBulkWorkers } from "./bulk.workers";

let t: TestApp;
let clock: ManualClock;
const DAY = 86_400_000;

testAppEach((app, c) => {
  t = app;
  clock = c;
});

const api = (key?: string) => t.client(bulkRouter, { key }).workspaces[":workspaceId"].files.bulk;
const start = async (body: CreateBulkJobBody, key?: string) =>
  expectBody(await api(key).$post({ param: t.ws, json: body }), 201);
const job = async (jobId: string) =>
  okBody(await api()[":jobId"].$get({ param: { ...t.ws, jobId } }));
const cancel = (jobId: string) => api()[":jobId"].cancel.$post({ param: { ...t.ws, jobId } });
const undo = (jobId: string) => api()[":jobId"].undo.$post({ param: { ...t.ws, jobId } });
/** Starts the job and lets the runner finish it; returns the finished job. */
const run = async (body: CreateBulkJobBody) => {
  const started = await start(body);
  await t.deps.jobs.runDue();
  return job(started.id);
};
const seed = (folder: string, count: number, folderEvery = 0) =>
  seedEntries(t.deps.files, t.workspaceId, folder, count, { folderEvery, pauseMs: 0 });
const count = (sql: string, ...params: unknown[]) =>
  t.deps.db
    .prepare(sql)
    .pluck()
    .get(...params) as number;
const names = (p = "") => folderNames(t, p, { count: 1000 });

async function fileEvents() {
  const stream = t.client(eventsRouter).workspaces[":workspaceId"].events;
  const page = await okBody(await stream.$get({ param: t.ws, query: { limit: "1000" } }));
  return page.events.filter((e) => e.type.startsWith("file.") && "jobId" in e.data);
}

describe("bulk trash and delete", () => {
  it("trashes listed paths, each top path one trash item; a path inside a listed folder goes with it", async () => {
    await writeFile(t, "p/a.txt");
    await writeFile(t, "p/shots/one.exr");
    await writeFile(t, "p/keep.txt");
    const started = await start({
      action: "trash",
      selection: { paths: ["p/a.txt", "p/shots", "p/shots/one.exr", "p/missing.txt"] },
    });
    expect(started).toMatchObject({ kind: "bulk", action: "trash", status: "queued", total: null });
    await t.deps.jobs.runDue();
    const done = await job(started.id);
    expect(done).toMatchObject({ status: "completed", total: 3, done: 2, failed: 1 });
    expect(done.failures).toEqual([
      { target: "p/missing.txt", code: "not_found", message: '"p/missing.txt" was not found' },
    ]);
    expect(await names("p")).toEqual(["keep.txt"]);
    expect((await listTrash(t)).map((i) => i.path).sort()).toEqual(["p/a.txt", "p/shots"]);
  });

  it("trashes all of a folder except some names, one trash item per child, in batches", async () => {
    registerBulkWorkers(t.deps, { batchSize: 7 });
    await seed("big", 40, 5);
    const children = await names("big");
    const except = [children[0]!, children[39]!, "not-there"];
    const done = await run({ action: "trash", selection: { folder: "big", allExcept: except } });
    expect(done).toMatchObject({ status: "completed", total: 38, done: 38, failed: 0 });
    expect(await names("big")).toEqual([children[0], children[39]]);
    expect((await listFolder(t, "big")).total).toBe(2);
    expect(await listTrash(t)).toHaveLength(38);
    expect(count("SELECT count(*) FROM trash_items WHERE path LIKE 'big/%'")).toBe(38);
  });

  it("goes through listed paths and ids across batches, each once", async () => {
    registerBulkWorkers(t.deps, { batchSize: 4 });
    await seed("l", 30);
    const all = await names("l");
    const paths = all.slice(0, 25).map((n) => `l/${n}`);
    const trashed = await run({ action: "trash", selection: { paths: [...paths].reverse() } });
    expect(trashed).toMatchObject({ status: "completed", total: 25, done: 25, failed: 0 });
    expect(await names("l")).toEqual(all.slice(25));
    const ids = (await listTrash(t)).map((i) => i.id);
    const restored = await run({ action: "restore", selection: { itemIds: [...ids, ids[0]!] } });
    expect(restored).toMatchObject({ status: "completed", total: 25, done: 25, failed: 0 });
    expect(await names("l")).toEqual(all);
    expect((await listFolder(t, "l")).total).toBe(30);
  });

  it("deletes permanently, listed or all except, and frees the blobs nobody references", async () => {
    await writeFile(t, "d/a.txt", "only here");
    await writeFile(t, "d/b.txt", "b");
    await writeFile(t, "d/c.txt", "c");
    await writeFile(t, "e/x.txt", "x");
    const listed = await run({ action: "delete", selection: { paths: ["e/x.txt"] } });
    expect(listed).toMatchObject({ status: "completed", total: 1, done: 1 });
    const all = await run({ action: "delete", selection: { folder: "d", allExcept: ["c.txt"] } });
    expect(all).toMatchObject({ status: "completed", total: 2, done: 2 });
    expect(await names("d")).toEqual(["c.txt"]);
    expect(await names("e")).toEqual([]);
    expect(await listTrash(t)).toEqual([]);
    expect(count("SELECT count(*) FROM blobs")).toBe(1);
  });
});

describe("bulk restore and purge", () => {
  async function trashed(paths: string[]) {
    for (const p of paths) await writeFile(t, p);
    await run({ action: "trash", selection: { paths } });
    return Object.fromEntries((await listTrash(t)).map((i) => [i.path, i.id]));
  }

  it("restores listed items by the rules of POST restore, renaming beside a taken path", async () => {
    const ids = await trashed(["r/a.txt", "r/b.txt", "r/c.txt"]);
    await writeFile(t, "r/a.txt", "new a");
    const done = await run({
      action: "restore",
      selection: { itemIds: [ids["r/a.txt"]!, ids["r/b.txt"]!] },
    });
    expect(done).toMatchObject({ status: "completed", total: 2, done: 2, failed: 0 });
    // Only the renamed item is reported, with the path it came back to.
    expect(done.renamed).toEqual([{ itemId: ids["r/a.txt"], path: "r/a (restored).txt" }]);
    expect(await names("r")).toEqual(["a (restored).txt", "a.txt", "b.txt"]);
    expect((await listTrash(t)).map((i) => i.path)).toEqual(["r/c.txt"]);
  });

  it("records a restore whose parent is now a file as a failure with its reason, and goes on", async () => {
    const ids = await trashed(["x/in/a.txt", "x/b.txt"]);
    await run({ action: "delete", selection: { paths: ["x/in"] } });
    await writeFile(t, "x/in", "a file where the folder was");
    const done = await run({ action: "restore", selection: { itemIds: Object.values(ids) } });
    expect(done).toMatchObject({ status: "completed", total: 2, done: 1, failed: 1 });
    expect(done.failures).toEqual([
      {
        target: ids["x/in/a.txt"],
        code: "file_in_the_way",
        message: '"x/in/a.txt" cannot be restored: "x/in" is a file, not a folder',
      },
    ]);
    expect(await names("x")).toEqual(["b.txt", "in"]);
  });

  it("selects trash items by a filter (text, folder, dates) except some ids", async () => {
    await trashed(["f/one/plate_1.exr", "f/one/notes.txt", "f/two/plate_2.exr"]);
    clock.advance(2 * DAY);
    const later = await trashed(["f/one/plate_3.exr", "g/plate_4.exr"]);
    const restore = async (filter: object, allExcept: string[] = []) =>
      run({ action: "restore", selection: { filter, allExcept } });

    expect(
      await restore({ q: "PLATE", folder: "f/one" }, [later["f/one/plate_3.exr"]!]),
    ).toMatchObject({ total: 1, done: 1 });
    expect(await names("f/one")).toEqual(["plate_1.exr"]);
    const since = new Date(Date.parse("2026-06-02T12:00:00Z")).toISOString();
    expect(await restore({ deletedAfter: since })).toMatchObject({ total: 2, done: 2 });
    expect((await listTrash(t)).map((i) => i.path).sort()).toEqual([
      "f/one/notes.txt",
      "f/two/plate_2.exr",
    ]);
    expect(await restore({ deletedBefore: "2026-06-01T12:00:00Z" })).toMatchObject({
      total: 0,
      done: 0,
      status: "completed",
    });
    const purged = await run({
      action: "purge",
      selection: { filter: { q: "notes" }, allExcept: [] },
    });
    expect(purged).toMatchObject({ total: 1, done: 1 });
    expect((await listTrash(t)).map((i) => i.path)).toEqual(["f/two/plate_2.exr"]);
  });

  it("purges listed items for good; an unknown id is a failure", async () => {
    const ids = await trashed(["q/a.txt", "q/b.txt"]);
    const done = await run({
      action: "purge",
      selection: { itemIds: [ids["q/a.txt"]!, "01jz0000000000000000000000"] },
    });
    expect(done).toMatchObject({ total: 2, done: 1, failed: 1 });
    expect(done.failures[0]).toMatchObject({
      target: "01jz0000000000000000000000",
      code: "not_found",
    });
    expect((await listTrash(t)).map((i) => i.path)).toEqual(["q/b.txt"]);
  });
});

describe("bounds and scopes", () => {
  it("refuses selections past the BULK_* bounds, empty lists and a selection of the wrong kind", async () => {
    const post = (body: unknown) => api().$post({ param: t.ws, json: body as never });
    const cases: unknown[] = [
      { action: "trash", selection: { paths: [] } },
      {
        action: "trash",
        selection: { paths: Array.from({ length: BULK_PATHS_MAX + 1 }, (_, i) => `p${i}`) },
      },
      {
        action: "trash",
        selection: {
          folder: "",
          allExcept: Array.from({ length: BULK_EXCEPT_MAX + 1 }, (_, i) => `n${i}`),
        },
      },
      { action: "restore", selection: { itemIds: [] } },
      {
        action: "restore",
        selection: {
          itemIds: Array.from({ length: BULK_IDS_MAX + 1 }, (_, i) => `0000000000${i}`),
        },
      },
      { action: "trash", selection: { itemIds: ["01jz0000000000000000000000"] } },
      { action: "purge", selection: { paths: ["a.txt"] } },
      { action: "shred", selection: { paths: ["a.txt"] } },
    ];
    for (const body of cases) {
      expect((await expectError(await post(body), 400)).code).toBe("validation_failed");
    }
    expect(count("SELECT count(*) FROM bulk_jobs")).toBe(0);
  });

  it("an unknown folder is 404, a file is not a folder, an empty folder completes with nothing to do", async () => {
    await writeFile(t, "file.txt");
    const post = (folder: string) =>
      api().$post({ param: t.ws, json: { action: "trash", selection: { folder, allExcept: [] } } });
    expect((await expectError(await post("nope"), 404)).details).toEqual({ path: "nope" });
    expect((await expectError(await post("file.txt"), 400)).issues[0]!.code).toBe("not_a_folder");
    await t.deps.files.createFolder(t.workspaceId, "empty");
    const done = await run({ action: "trash", selection: { folder: "empty", allExcept: [] } });
    expect(done).toMatchObject({ status: "completed", total: 0, done: 0, undoable: false });
  });

  it("needs files:write to start, cancel or undo, and files:read to look", async () => {
    const reader = t.keyWith(["files:read"]);
    const other = t.keyWith(["webhooks:manage"]);
    await writeFile(t, "a.txt");
    const body: CreateBulkJobBody = { action: "trash", selection: { paths: ["a.txt"] } };
    expect(
      (await expectError(await api(reader).$post({ param: t.ws, json: body }), 403)).code,
    ).toBe("forbidden");
    const started = await start(body);
    const param = { ...t.ws, jobId: started.id };
    expect((await api(reader)[":jobId"].$get({ param })).status).toBe(200);
    expect((await api(reader).$get({ param: t.ws, query: {} })).status).toBe(200);
    expect((await api(other)[":jobId"].$get({ param })).status).toBe(403);
    expect((await api(reader)[":jobId"].cancel.$post({ param })).status).toBe(403);
    expect((await api(reader)[":jobId"].undo.$post({ param })).status).toBe(403);
    expect((await api()[":jobId"].$get({ param: { ...t.ws, jobId: "nope" } })).status).toBe(404);
  });

  it("lists newest first; active keeps the queued and running", async () => {
    await writeFile(t, "a.txt");
    const first = await run({ action: "trash", selection: { paths: ["a.txt"] } });
    clock.advance(1000);
    const second = await start({ action: "trash", selection: { folder: "", allExcept: [] } });
    const all = await okBody(await api().$get({ param: t.ws, query: {} }));
    expect(all.map((j) => j.id)).toEqual([second.id, first.id]);
    const active = await okBody(await api().$get({ param: t.ws, query: { active: "1" } }));
    expect(active.map((j) => j.id)).toEqual([second.id]);
  });
});

describe("cancel, undo and resume", () => {
  it("cancel takes effect between batches: counters true, the rest untouched, one event", async () => {
    registerBulkWorkers(t.deps, { batchSize: 5 });
    await seed("c", 100);
    // Recurring jobs due at start-up (the node's cleanup, say) would otherwise run first.
    await t.deps.jobs.runDue();
    const started = await start({ action: "trash", selection: { folder: "c", allExcept: [] } });
    // The runner does its first batch at once, then yields between batches.
    const running = t.deps.jobs.runDue();
    const cancelled = await okBody(await cancel(started.id));
    await running;
    const after = await job(started.id);
    expect(after).toEqual(cancelled);
    expect(after.status).toBe("cancelled");
    expect(after.done).toBeGreaterThan(0);
    expect(after.done).toBeLessThan(100);
    expect(after.done % 5).toBe(0);
    expect(await listTrash(t)).toHaveLength(after.done);
    expect((await listFolder(t, "c")).total).toBe(100 - after.done);
    const events = await fileEvents();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ jobId: started.id, count: after.done, failed: 0 });
    // Cancelling again answers the job as it is; a completed job cannot be cancelled.
    expect(await okBody(await cancel(started.id))).toEqual(after);
    await writeFile(t, "z.txt");
    const completed = await run({ action: "trash", selection: { paths: ["z.txt"] } });
    expect((await expectError(await cancel(completed.id), 400)).issues[0]!.code).toBe(
      "not_cancellable",
    );
  });

  it("undo restores exactly what a trash job trashed, once", async () => {
    registerBulkWorkers(t.deps, { batchSize: 4 });
    await seed("u", 10);
    await writeFile(t, "u-other/gone.txt");
    await run({ action: "trash", selection: { paths: ["u-other/gone.txt"] } });
    const before = await names("u");
    const trashJob = await run({
      action: "trash",
      selection: { folder: "u", allExcept: [before[0]!] },
    });
    expect(trashJob).toMatchObject({ done: 9, undoable: true });
    const undoJob = await expectBody(await undo(trashJob.id), 201);
    expect(undoJob).toMatchObject({ action: "restore", undoOf: trashJob.id, status: "queued" });
    expect(await job(trashJob.id)).toMatchObject({ undoable: false, undoneBy: undoJob.id });
    await t.deps.jobs.runDue();
    expect(await job(undoJob.id)).toMatchObject({ status: "completed", total: 9, done: 9 });
    expect(await names("u")).toEqual(before);
    expect((await listTrash(t)).map((i) => i.path)).toEqual(["u-other/gone.txt"]);
    const again = await expectError(await undo(trashJob.id), 400);
    expect(again.issues[0]!.code).toBe("not_undoable");
    expect((await expectError(await undo(undoJob.id), 400)).issues[0]!.code).toBe("not_undoable");
  });

  it("a runner stopped mid-job leaves it to the next, which finishes without redoing anything", async () => {
    registerBulkWorkers(t.deps, { batchSize: 6 });
    await seed("s", 60, 4);
    await t.deps.jobs.runDue(); // The start-up housekeeping, so the next claim is the bulk job.
    const started = await start({ action: "trash", selection: { folder: "s", allExcept: [] } });
    const first = t.deps.jobs.runDue(1);
    // The first batch ran synchronously; stopping releases the lease before the next one.
    await t.deps.jobs.stop(0);
    await first;
    const midway = await job(started.id);
    expect(midway.status).toBe("running");
    expect(midway.done).toBe(6);
    const next = new JobRunner(t.deps.db, clock, createLogger("silent"));
    registerBulkWorkers({ ...t.deps, jobs: next }, { batchSize: 6 });
    await next.runDue();
    const done = await job(started.id);
    expect(done).toMatchObject({ status: "completed", total: 60, done: 60, failed: 0 });
    expect(count("SELECT count(*) FROM trash_items")).toBe(60);
    expect(count("SELECT count(DISTINCT entry_id) FROM trash_items")).toBe(60);
    expect(count("SELECT count(*) FROM bulk_job_trash WHERE job_id = ?", started.id)).toBe(60);
    expect((await listFolder(t, "s")).total).toBe(0);
    expect(await fileEvents()).toHaveLength(1);
  });

  it("records one event per job with its counts and the first 100 paths", async () => {
    registerBulkWorkers(t.deps, { batchSize: 50 });
    await seed("e", 230);
    const trashJob = await run({ action: "trash", selection: { folder: "e", allExcept: [] } });
    const restoreJob = await run({
      action: "restore",
      selection: { filter: { folder: "e" }, allExcept: [] },
    });
    await run({ action: "delete", selection: { folder: "e", allExcept: [] } });
    const events = await fileEvents();
    expect(events.map((e) => e.type)).toEqual(["file.trashed", "file.restored", "file.deleted"]);
    const [trashed, restored, deleted] = events.map((e) => e.data as Record<string, unknown[]>);
    expect(trashed).toMatchObject({ jobId: trashJob.id, count: 230, failed: 0 });
    expect(trashed!.paths).toHaveLength(100);
    expect(trashed!.itemIds).toHaveLength(100);
    expect(restored).toMatchObject({ jobId: restoreJob.id, count: 230 });
    expect(restored!.paths).toHaveLength(100);
    expect(deleted!.paths).toHaveLength(100);
    expect(deleted).toMatchObject({ count: 230 });
  });
});

describe("bulk jobs in a thread of their own", () => {
  it("trashes a folder from a worker thread on its own connection, and its event reaches the main thread", async () => {
    registerBulkWorkers(t.deps, { batchSize: 9, thread: true });
    await seed("threaded", 50);
    const heard: string[] = [];
    t.deps.events.bus.on("recorded", (e: { type: string }) => heard.push(e.type));
    const done = await run({ action: "trash", selection: { folder: "threaded", allExcept: [] } });
    expect(done).toMatchObject({ status: "completed", total: 50, done: 50, failed: 0 });
    expect(await names("threaded")).toEqual([]);
    expect(await listTrash(t)).toHaveLength(50);
    expect(heard).toContain("file.trashed");
  });
});
