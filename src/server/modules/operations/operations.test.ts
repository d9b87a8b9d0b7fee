import { beforeEach, describe, expect, it } from "vitest";
import type { CreateOperationBody } from "@/contract/operations";
import { OPERATION_BYTES_MAX } from "@/contract/rules";
import type { ManualClock } from "@/server/lib/clock";
import { insert } from "@/server/modules/files/files.repository";
import { expectBody, expectError, okBody } from "@/server/testing/expect-body";
import { filesClient, folderNames, listFolder, writeFile } from "@/server/testing/files-client";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { JobRunner } from "@/server/workers/job-runner";
import { operationsRouter } from "./operations.index";
import { cancelOperation, OPERATION_JOB } from "./operations.service";
import { type OperationTuning, operationJob } from "./operations.workers";
import { keepBothName } from "./tree-copy";

let t: TestApp;
let clock: ManualClock;

testAppEach((app, c) => {
  t = app;
  clock = c;
});

const ops = (key?: string) =>
  t.client(operationsRouter, { key }).workspaces[":workspaceId"].files.operations;
const create = (json: CreateOperationBody, key?: string) => ops(key).$post({ param: t.ws, json });
const start = async (json: CreateOperationBody) => expectBody(await create(json), 201);
const get = async (jobId: string) =>
  okBody(await ops()[":jobId"].$get({ param: { ...t.ws, jobId } }));
const cancel = (jobId: string, key?: string) =>
  ops(key)[":jobId"].cancel.$post({ param: { ...t.ws, jobId } });
const runJobs = () => t.deps.jobs.runDue();
const write = (p: string, content?: string) => writeFile(t, p, content);
const names = (p = "") => folderNames(t, p);
const mkdir = (p: string) => t.deps.files.createFolder(t.workspaceId, p);
/** What became of each item (an extension member the contract's item type leaves out). */
const itemStatuses = (job: { items: object[] }) =>
  job.items.map((i) => (i as { status: string }).status);
const blobs = () =>
  t.deps.db.prepare("SELECT count(*) AS n, sum(ref_count) AS refs FROM blobs").get() as {
    n: number;
    refs: number;
  };
const liveEntries = () =>
  t.deps.db
    .prepare("SELECT count(*) FROM entries WHERE workspace_id = ? AND trash_id IS NULL")
    .pluck()
    .get(t.workspaceId) as number;
const events = (type: string) =>
  (
    t.deps.db
      .prepare("SELECT data FROM events WHERE type = ? ORDER BY seq")
      .pluck()
      .all(type) as string[]
  ).map((d) => JSON.parse(d));
/** Another worker on the same database, as a second process would be, with test tuning. */
function runner(tuning: OperationTuning) {
  const r = new JobRunner(t.deps.db, clock, t.deps.log);
  r.register(OPERATION_JOB, operationJob(t.deps, tuning));
  return r;
}

async function frames(
  folder: string,
  n: number,
  name = (i: number) => `shot.${String(i).padStart(4, "0")}.exr`,
) {
  for (let i = 1; i <= n; i++) await write(`${folder}/${name(i)}`, `frame ${i}`);
}

describe("copy", () => {
  it("copies a file and a folder through the content store: same blobs, no new bytes, originals kept", async () => {
    await write("src/a.txt", "alpha");
    await write("src/deep/b.txt", "bravo");
    await write("src/deep/deeper/c.txt", "charlie");
    await write("one.txt", "one");
    await mkdir("dst");
    const before = blobs();
    const entriesBefore = liveEntries();
    const job = await start({ kind: "copy", paths: ["src", "one.txt"], destination: "dst" });
    expect(job).toMatchObject({
      kind: "copy",
      status: "queued",
      destination: "dst",
      overwrite: false,
      items: [
        { path: "src", type: "folder", bytes: 17 },
        { path: "one.txt", type: "file", bytes: 3 },
      ],
      filesTotal: 4,
      filesDone: 0,
      bytesTotal: 20,
      bytesDone: 0,
      error: null,
      startedAt: null,
      finishedAt: null,
    });
    await runJobs();
    const done = await get(job.id);
    expect(done).toMatchObject({ status: "completed", filesDone: 4, bytesDone: 20 });
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();
    expect(await names("dst")).toEqual(["src", "one.txt"]);
    expect(await names("dst/src/deep")).toEqual(["deeper", "b.txt"]);
    expect(await names("src/deep/deeper")).toEqual(["c.txt"]);
    // 4 files and 3 folders more; the same 4 blobs, each referenced once more.
    expect(liveEntries()).toBe(entriesBefore + 7);
    expect(blobs()).toEqual({ n: before.n, refs: before.refs + 4 });
    const dst = await listFolder(t, "dst");
    expect(dst.items[0]).toMatchObject({ name: "src", childCount: 2 });
    const copied = (await listFolder(t, "dst/src/deep/deeper")).items[0]!;
    const original = (await listFolder(t, "src/deep/deeper")).items[0]!;
    expect(copied.sha256).toBe(original.sha256);
    expect(events("file.copied")).toEqual([
      {
        paths: ["dst/src", "dst/one.txt"],
        from: ["src", "one.txt"],
        jobId: job.id,
        destination: "dst",
        status: "completed",
        files: 4,
        bytes: 20,
      },
    ]);
  });

  it("copies into the root and refreshes the cached pages of every folder it changes", async () => {
    await write("a/x.txt");
    await mkdir("b");
    expect(await names("b")).toEqual([]);
    expect(await names()).toEqual(["a", "b"]);
    await start({ kind: "copy", paths: ["a/x.txt"], destination: "b" });
    await runJobs();
    expect(await names("b")).toEqual(["x.txt"]);
    const root = await listFolder(t);
    expect(root.items.find((i) => i.name === "b")?.childCount).toBe(1);
  });
});

describe("move", () => {
  it("moves a file with its kept versions and dates, and a folder with its subtree", async () => {
    await write("in/cut.mov", "v1");
    clock.advance(1000);
    await write("in/cut.mov", "v2");
    await write("in/reel/r1.mov", "reel one");
    await mkdir("out");
    const before = blobs();
    const original = (await listFolder(t, "in")).items.find((i) => i.name === "cut.mov")!;
    const job = await start({ kind: "move", paths: ["in/cut.mov", "in/reel"], destination: "out" });
    await runJobs();
    expect(await get(job.id)).toMatchObject({ status: "completed", filesDone: 2, bytesDone: 10 });
    expect(await names("in")).toEqual([]);
    expect(await names("out")).toEqual(["reel", "cut.mov"]);
    expect(await names("out/reel")).toEqual(["r1.mov"]);
    const moved = (await listFolder(t, "out")).items.find((i) => i.name === "cut.mov")!;
    expect(moved).toMatchObject({
      versionCount: 1,
      sha256: original.sha256,
      createdAt: original.createdAt,
      modifiedAt: original.modifiedAt,
    });
    const versions = await okBody(
      await filesClient(t).versions.$get({ param: t.ws, query: { path: "out/cut.mov" } }),
    );
    expect(versions).toHaveLength(1);
    // Moving adds and drops one reference per file: no blob gained or lost.
    expect(blobs()).toEqual(before);
    expect(events("file.moved")).toEqual([
      expect.objectContaining({
        paths: ["out/cut.mov", "out/reel"],
        from: ["in/cut.mov", "in/reel"],
        status: "completed",
        files: 2,
      }),
    ]);
  });

  it("takes the whole numbered set of a selected frame, or only the frame with expandSequences false", async () => {
    await frames("seq", 5);
    await write("seq/shot.01.exr");
    await write("seq/shot.00001.exr");
    await write("seq/other.0001.exr");
    await mkdir("a");
    await mkdir("b");
    const whole = await start({ kind: "move", paths: ["seq/shot.0003.exr"], destination: "a" });
    expect(whole.items.map((i) => i.path)).toEqual([
      "seq/shot.0001.exr",
      "seq/shot.0002.exr",
      "seq/shot.0003.exr",
      "seq/shot.0004.exr",
      "seq/shot.0005.exr",
    ]);
    expect(whole.filesTotal).toBe(5);
    await runJobs();
    expect(await names("a")).toHaveLength(5);
    expect(await names("seq")).toEqual(["other.0001.exr", "shot.00001.exr", "shot.01.exr"]);

    const one = await start({
      kind: "copy",
      paths: ["a/shot.0002.exr"],
      destination: "b",
      expandSequences: false,
    });
    expect(one.items.map((i) => i.path)).toEqual(["a/shot.0002.exr"]);
    await runJobs();
    expect(await names("b")).toEqual(["shot.0002.exr"]);
  });
});

describe("refusals", () => {
  beforeEach(async () => {
    await write("a/x.txt", "x");
    await write("a/sub/y.txt", "y");
    await write("b/x.txt", "other x");
    await write("file.txt");
  });

  it("an unknown path or destination is 404 naming it; nothing is queued", async () => {
    const missing = await expectError(
      await create({ kind: "copy", paths: ["a/x.txt", "nope.txt"], destination: "b" }),
      404,
    );
    expect(missing).toMatchObject({ code: "not_found", details: { path: "nope.txt" } });
    const noDest = await expectError(
      await create({ kind: "copy", paths: ["a/x.txt"], destination: "gone" }),
      404,
    );
    expect(noDest.details).toEqual({ path: "gone" });
    expect(await okBody(await ops().$get({ param: t.ws, query: {} }))).toEqual([]);
  });

  it("a destination that is a file, into itself, a move within its own folder, and the bounds", async () => {
    const file = await expectError(
      await create({ kind: "copy", paths: ["a/x.txt"], destination: "file.txt" }),
      400,
    );
    expect(file.issues[0]).toMatchObject({ field: "destination", code: "not_a_folder" });
    for (const destination of ["a", "a/sub"]) {
      const into = await expectError(
        await create({ kind: "move", paths: ["a"], destination }),
        400,
      );
      expect(into.issues[0]?.code).toBe("into_itself");
    }
    const same = await expectError(
      await create({ kind: "move", paths: ["a/x.txt"], destination: "a" }),
      400,
    );
    expect(same.issues[0]?.code).toBe("same_folder");
    const none = await expectError(await create({ kind: "copy", paths: [], destination: "" }), 400);
    expect(none.issues[0]?.field).toBe("paths");
    const paths = Array.from({ length: 201 }, (_, i) => `f${i}`);
    const many = await expectError(await create({ kind: "copy", paths, destination: "" }), 400);
    expect(many.issues[0]?.field).toBe("paths");
  });

  it("past 500 GB: 403 plan_limit with the size and the limit", async () => {
    const folder = t.deps.files.ensureFolder(t.workspaceId, "huge", clock.now());
    t.deps.db.transaction(() => {
      for (const name of ["one.bin", "two.bin"])
        insert(
          t.deps.db,
          folder,
          name,
          { size: 300_000_000_000, mime: null, sha256: "0".repeat(64) },
          clock.now(),
        );
    })();
    const res = await expectError(
      await create({ kind: "copy", paths: ["huge"], destination: "b" }),
      403,
    );
    expect(res).toMatchObject({
      code: "plan_limit",
      details: { bytesTotal: 600_000_000_000, limit: OPERATION_BYTES_MAX },
    });
  });

  it("a taken name is refused with every conflict listed, unless a choice decides it", async () => {
    await write("b/sub/z.txt");
    const res = await expectError(
      await create({ kind: "copy", paths: ["a/x.txt", "a/sub"], destination: "b" }),
      400,
    );
    expect(res.issues[0]).toMatchObject({ field: "paths", code: "conflict" });
    expect(res.details.conflicts).toEqual([
      { path: "a/x.txt", destinationPath: "b/x.txt", type: "file", existingType: "file" },
      { path: "a/sub", destinationPath: "b/sub", type: "folder", existingType: "folder" },
    ]);
    // A file cannot overwrite a folder, nor the reverse: still a conflict.
    await write("c/x.txt/inner.txt");
    const mismatch = await expectError(
      await create({ kind: "copy", paths: ["a/x.txt"], destination: "c", overwrite: true }),
      400,
    );
    expect(mismatch.details.conflicts).toEqual([
      { path: "a/x.txt", destinationPath: "c/x.txt", type: "file", existingType: "folder" },
    ]);
  });
});

describe("conflict choices", () => {
  beforeEach(async () => {
    await write("a/x.txt", "new x");
    await write("a/sub/y.txt", "new y");
    await write("a/sub/only-a.txt", "a");
    await write("b/x.txt", "old x");
    await write("b/sub/y.txt", "old y");
    await write("b/sub/only-b.txt", "b");
  });

  it("overwrite: a file replaces the file (old content kept as a version), a folder merges", async () => {
    const job = await start({
      kind: "move",
      paths: ["a/x.txt", "a/sub"],
      destination: "b",
      overwrite: true,
    });
    expect(job.overwrite).toBe(true);
    await runJobs();
    expect(await get(job.id)).toMatchObject({ status: "completed", filesDone: 3 });
    expect(await names("a")).toEqual([]);
    expect(await names("b/sub")).toEqual(["only-a.txt", "only-b.txt", "y.txt"]);
    const x = (await listFolder(t, "b")).items.find((i) => i.name === "x.txt")!;
    expect(x.versionCount).toBe(1);
    const y = (await listFolder(t, "b/sub")).items.find((i) => i.name === "y.txt")!;
    expect(y).toMatchObject({ versionCount: 1, sizeBytes: 5 });
  });

  it("onConflict skip leaves taken names alone and moves the rest", async () => {
    await write("a/free.txt");
    const job = await start({
      kind: "move",
      paths: ["a/x.txt", "a/free.txt"],
      destination: "b",
      onConflict: "skip",
    });
    await runJobs();
    const done = await get(job.id);
    expect(done).toMatchObject({ status: "completed", filesDone: 2 });
    expect(done.items).toEqual([
      expect.objectContaining({ path: "a/x.txt", status: "skipped", destinationPath: null }),
      expect.objectContaining({
        path: "a/free.txt",
        status: "done",
        destinationPath: "b/free.txt",
      }),
    ]);
    expect(await names("a")).toEqual(["sub", "x.txt"]);
    expect((await listFolder(t, "b")).items.find((i) => i.name === "x.txt")?.sizeBytes).toBe(5);
  });

  it('keepBoth puts the item beside it as "name (2).ext", then (3)', async () => {
    await start({
      kind: "copy",
      paths: ["a/x.txt", "a/sub"],
      destination: "b",
      onConflict: "keepBoth",
    });
    await runJobs();
    await start({ kind: "copy", paths: ["a/x.txt"], destination: "b", onConflict: "keepBoth" });
    await runJobs();
    expect(await names("b")).toEqual(["sub", "sub (2)", "x (2).txt", "x (3).txt", "x.txt"]);
    expect(await names("b/sub (2)")).toEqual(["only-a.txt", "y.txt"]);
    expect(keepBothName("archive.tar", true, 2)).toBe("archive (2).tar");
    expect(keepBothName("Shots.v2", false, 2)).toBe("Shots.v2 (2)");
    expect(keepBothName(`${"n".repeat(255)}`, false, 12)).toHaveLength(255);
  });

  it("a copy into its own folder duplicates with keepBoth; resolutions choose per item over onConflict", async () => {
    await start({ kind: "copy", paths: ["a/x.txt"], destination: "a", onConflict: "keepBoth" });
    await runJobs();
    expect(await names("a")).toEqual(["sub", "x (2).txt", "x.txt"]);
    const job = await start({
      kind: "copy",
      paths: ["a/x.txt", "a/sub"],
      destination: "b",
      onConflict: "skip",
      resolutions: { "a/x.txt": "overwrite" },
    });
    await runJobs();
    expect(itemStatuses(await get(job.id))).toEqual(["done", "skipped"]);
    expect((await listFolder(t, "b")).items.find((i) => i.name === "x.txt")?.sizeBytes).toBe(5);
    expect(await names("b/sub")).toEqual(["only-b.txt", "y.txt"]);
  });
});

describe("scopes, reading and listing", () => {
  it("files:read lists and reads jobs but cannot start or cancel one", async () => {
    await write("a.txt");
    await mkdir("d");
    const reader = t.keyWith(["files:read"]);
    const refused = await expectError(
      await create({ kind: "copy", paths: ["a.txt"], destination: "d" }, reader),
      403,
    );
    expect(refused.code).toBe("forbidden");
    const job = await start({ kind: "copy", paths: ["a.txt"], destination: "d" });
    expect((await expectError(await cancel(job.id, reader), 403)).code).toBe("forbidden");
    expect(await okBody(await ops(reader).$get({ param: t.ws, query: {} }))).toHaveLength(1);
    expect(
      (await expectError(await ops()[":jobId"].$get({ param: { ...t.ws, jobId: "nope" } }), 404))
        .code,
    ).toBe("not_found");
  });

  it("lists newest first; active keeps queued and running jobs; limit bounds the list", async () => {
    await write("a.txt");
    await mkdir("d");
    const first = await start({ kind: "copy", paths: ["a.txt"], destination: "d" });
    await runJobs();
    const ids = [first.id];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      ids.push(
        (await start({ kind: "copy", paths: ["a.txt"], destination: "d", onConflict: "keepBoth" }))
          .id,
      );
    }
    const all = await okBody(await ops().$get({ param: t.ws, query: {} }));
    expect(all.map((j) => j.id)).toEqual([...ids].reverse());
    const active = await okBody(await ops().$get({ param: t.ws, query: { active: "true" } }));
    expect(active.map((j) => j.id)).toEqual(ids.slice(1).reverse());
    const two = await okBody(await ops().$get({ param: t.ws, query: { limit: "2" } }));
    expect(two.map((j) => j.id)).toEqual([ids[3], ids[2]]);
    const bad = await expectError(await ops().$get({ param: t.ws, query: { limit: "201" } }), 400);
    expect(bad.issues[0]?.field).toBe("query.limit");
  });
});

describe("cancel and restart", () => {
  async function bigMove() {
    for (let i = 0; i < 6; i++) await write(`src/f${i}.txt`, `file ${i}`);
    await mkdir("dst");
    const paths = Array.from({ length: 6 }, (_, i) => `src/f${i}.txt`);
    return start({ kind: "move", paths, destination: "dst", expandSequences: false });
  }

  it("cancel from queued: the job ends cancelled and nothing moves", async () => {
    const job = await bigMove();
    const cancelled = await okBody(await cancel(job.id));
    expect(cancelled).toMatchObject({ status: "cancelled", filesDone: 0 });
    expect(cancelled.finishedAt).not.toBeNull();
    await runJobs();
    expect(await get(job.id)).toMatchObject({ status: "cancelled", filesDone: 0, bytesDone: 0 });
    expect(await names("src")).toHaveLength(6);
    expect(await names("dst")).toEqual([]);
    // Cancelling again answers the job unchanged.
    expect((await okBody(await cancel(job.id))).status).toBe("cancelled");
    expect(events("file.moved")).toEqual([]);
  });

  it("cancel while running: items done stay moved, the rest stay put, the counters say so", async () => {
    const job = await bigMove();
    let batches = 0;
    await runner({
      batchFiles: 1,
      afterBatch: () => {
        if (++batches === 2) cancelOperation(t.deps, t.workspaceId, job.id);
      },
    }).runDue();
    const after = await get(job.id);
    expect(after).toMatchObject({ status: "cancelled", filesDone: 2, filesTotal: 6 });
    expect(itemStatuses(after)).toEqual([
      "done",
      "done",
      "pending",
      "pending",
      "pending",
      "pending",
    ]);
    expect(await names("dst")).toEqual(["f0.txt", "f1.txt"]);
    expect(await names("src")).toEqual(["f2.txt", "f3.txt", "f4.txt", "f5.txt"]);
    expect(after.bytesDone).toBe(12);
    expect(events("file.moved")).toEqual([
      expect.objectContaining({ status: "cancelled", paths: ["dst/f0.txt", "dst/f1.txt"] }),
    ]);
  });

  it("cancelled while its worker was dead: the next run ends it and reports the items it did", async () => {
    const job = await bigMove();
    let batches = 0;
    await runner({
      batchFiles: 1,
      afterBatch: () => {
        if (++batches === 2) throw new Error("process killed");
      },
    }).runDue();
    expect((await okBody(await cancel(job.id))).filesDone).toBe(2);
    clock.advance(10_000);
    await runJobs();
    expect(await get(job.id)).toMatchObject({ status: "cancelled", filesDone: 2 });
    expect(await names("src")).toHaveLength(4);
    expect(events("file.moved")).toEqual([
      expect.objectContaining({ status: "cancelled", paths: ["dst/f0.txt", "dst/f1.txt"] }),
    ]);
  });

  it("a completed job cannot be cancelled", async () => {
    const job = await bigMove();
    await runJobs();
    const refused = await expectError(await cancel(job.id), 400);
    expect(refused.issues[0]).toMatchObject({ field: "jobId", code: "not_cancellable" });
  });

  it("a worker that dies mid-job: the next run resumes where it stopped, nothing lost or done twice", async () => {
    const job = await bigMove();
    let batches = 0;
    await runner({
      batchFiles: 1,
      afterBatch: () => {
        if (++batches === 3) throw new Error("process killed");
      },
    }).runDue();
    expect(await get(job.id)).toMatchObject({ status: "running", filesDone: 3 });
    expect(await names("dst")).toEqual(["f0.txt", "f1.txt", "f2.txt"]);
    // The runner's retry comes after its backoff; a new runner (a restart) takes it then.
    clock.advance(10_000);
    await runJobs();
    const done = await get(job.id);
    expect(done).toMatchObject({ status: "completed", filesDone: 6, filesTotal: 6, bytesDone: 36 });
    expect(await names("dst")).toEqual([
      "f0.txt",
      "f1.txt",
      "f2.txt",
      "f3.txt",
      "f4.txt",
      "f5.txt",
    ]);
    expect(await names("src")).toEqual([]);
    expect(
      t.deps.db.prepare("SELECT count(*) FROM entries WHERE path LIKE 'dst/%'").pluck().get(),
    ).toBe(6);
    expect(events("file.moved")).toHaveLength(1);
  });
});

describe("a big folder copied in steps", () => {
  const liveUnder = (p: string) =>
    t.deps.db
      .prepare("SELECT count(*) FROM entries WHERE trash_id IS NULL AND path LIKE ?")
      .pluck()
      .get(`${p}/%`) as number;
  const hidden = () =>
    t.deps.db.prepare("SELECT count(*) FROM entries WHERE trash_id LIKE 'op:%'").pluck().get();

  async function bigFolder() {
    for (let i = 0; i < 4; i++) await write(`big/f${i}.txt`, `top ${i}`);
    for (let i = 0; i < 4; i++) await write(`big/sub/s${i}.txt`, `sub ${i}`);
    await write("big/sub/deeper/d.txt", "deep");
    await mkdir("dst");
  }
  /** Folders with more than 3 files are copied 3 rows per transaction. */
  const stepper = (afterBatch?: (n: number) => void) => {
    let n = 0;
    return runner({ stageRows: 3, afterBatch: () => afterBatch?.(++n) });
  };

  it("builds the copy out of sight, then shows it whole and verified", async () => {
    await bigFolder();
    const before = blobs();
    const job = await start({ kind: "copy", paths: ["big"], destination: "dst" });
    // What a listing could see of the copy after each transaction: nothing until it is whole.
    const visible: number[] = [];
    await stepper(() => {
      visible.push(liveUnder("dst"));
    }).runDue();
    expect(visible).toEqual([0, 0, 0, 0, 12]);
    expect(await get(job.id)).toMatchObject({ status: "completed", filesDone: 9, bytesDone: 44 });
    expect(await names("dst/big")).toEqual(["sub", "f0.txt", "f1.txt", "f2.txt", "f3.txt"]);
    expect(await names("dst/big/sub")).toEqual(["deeper", "s0.txt", "s1.txt", "s2.txt", "s3.txt"]);
    expect(await names("dst/big/sub/deeper")).toEqual(["d.txt"]);
    expect((await listFolder(t, "dst")).items[0]).toMatchObject({ name: "big", childCount: 5 });
    expect(hidden()).toBe(0);
    expect(blobs()).toEqual({ n: before.n, refs: before.refs + 9 });
  });

  it("a move in steps: the copy shown whole, the originals gone, versions and blobs kept", async () => {
    await bigFolder();
    clock.advance(1000);
    await write("big/sub/s0.txt", "sub 0, second take");
    const before = blobs();
    const job = await start({ kind: "move", paths: ["big"], destination: "dst" });
    const visible: number[][] = [];
    await stepper(() => {
      visible.push([liveUnder("big"), liveUnder("dst")]);
    }).runDue();
    // Hidden while built; then the copy and the originals trade places in one transaction.
    expect(visible.slice(0, 4)).toEqual([
      [11, 0],
      [11, 0],
      [11, 0],
      [11, 0],
    ]);
    expect(visible[4]).toEqual([0, 12]);
    expect(await get(job.id)).toMatchObject({ status: "completed", filesDone: 9 });
    expect(await names()).toEqual(["dst"]);
    const s0 = (await listFolder(t, "dst/big/sub")).items.find((i) => i.name === "s0.txt")!;
    expect(s0).toMatchObject({ versionCount: 1, sizeBytes: 18 });
    expect(
      await okBody(
        await filesClient(t).versions.$get({ param: t.ws, query: { path: "dst/big/sub/s0.txt" } }),
      ),
    ).toHaveLength(1);
    expect(hidden()).toBe(0);
    expect(blobs()).toEqual(before);
    expect(events("file.moved")).toEqual([
      expect.objectContaining({ paths: ["dst/big"], from: ["big"], status: "completed" }),
    ]);
  });

  it("a move cancelled mid-copy leaves the originals where they were", async () => {
    await bigFolder();
    const before = blobs();
    const job = await start({ kind: "move", paths: ["big"], destination: "dst" });
    await stepper((n) => {
      if (n === 2) cancelOperation(t.deps, t.workspaceId, job.id);
    }).runDue();
    expect(await get(job.id)).toMatchObject({ status: "cancelled", filesDone: 0 });
    expect(liveUnder("big")).toBe(11);
    expect(await names("dst")).toEqual([]);
    expect(hidden()).toBe(0);
    expect(blobs()).toEqual(before);
  });

  it("a cancel mid-copy discards the hidden rows and their blob references", async () => {
    await bigFolder();
    const before = blobs();
    const job = await start({ kind: "copy", paths: ["big"], destination: "dst" });
    await stepper((n) => {
      if (n === 2) cancelOperation(t.deps, t.workspaceId, job.id);
    }).runDue();
    expect(await get(job.id)).toMatchObject({ status: "cancelled", filesDone: 0 });
    expect(await names("dst")).toEqual([]);
    expect(hidden()).toBe(0);
    expect(blobs()).toEqual(before);
    expect(events("file.copied")).toEqual([]);
  });

  it("a name taken while it was built: keepBoth takes the next name, no choice fails and discards", async () => {
    await bigFolder();
    const keep = await start({
      kind: "copy",
      paths: ["big"],
      destination: "dst",
      onConflict: "keepBoth",
    });
    await stepper((n) => {
      if (n === 1) t.deps.files.createFolder(t.workspaceId, "dst/big");
    }).runDue();
    expect(await get(keep.id)).toMatchObject({ status: "completed" });
    expect(await names("dst")).toEqual(["big", "big (2)"]);
    expect(await names("dst/big (2)/sub")).toEqual([
      "deeper",
      "s0.txt",
      "s1.txt",
      "s2.txt",
      "s3.txt",
    ]);

    const before = blobs();
    const strict = await start({ kind: "copy", paths: ["big"], destination: "dst/big (2)/sub" });
    await stepper((n) => {
      if (n === 1) t.deps.files.createFolder(t.workspaceId, "dst/big (2)/sub/big");
    }).runDue();
    const failed = await get(strict.id);
    expect(failed).toMatchObject({ status: "failed", filesDone: 0 });
    expect(failed.error).toContain("already exists");
    expect(hidden()).toBe(0);
    expect(blobs()).toEqual(before);
  });

  it("a job that fails on every attempt ends failed, and a last run discards its hidden copy", async () => {
    await bigFolder();
    const before = blobs();
    const job = await start({ kind: "copy", paths: ["big"], destination: "dst" });
    const status = () =>
      t.deps.db.prepare("SELECT status FROM file_operations WHERE id = ?").pluck().get(job.id);
    // Every batch of the running job fails, as on a database that stays locked (the copy takes
    // more steps than the runner makes attempts).
    const failing = runner({
      stageRows: 2,
      afterBatch: () => {
        if (status() === "running") throw new Error("database is locked");
      },
    });
    for (let attempt = 1; attempt < 5; attempt++) {
      await failing.runDue();
      clock.advance(10_000);
    }
    expect(status()).toBe("running");
    expect(hidden()).toBeGreaterThan(0);
    await failing.runDue();
    expect(await get(job.id)).toMatchObject({ status: "failed", error: "database is locked" });
    expect(hidden()).toBe(0);
    expect(blobs()).toEqual(before);
  });

  it("a worker that dies mid-copy: the next run continues the hidden copy, nothing doubled", async () => {
    await bigFolder();
    const job = await start({ kind: "copy", paths: ["big"], destination: "dst" });
    await stepper((n) => {
      if (n === 2) throw new Error("process killed");
    }).runDue();
    expect(hidden()).toBeGreaterThan(0);
    expect(await names("dst")).toEqual([]);
    clock.advance(10_000);
    await runJobs();
    expect(await get(job.id)).toMatchObject({ status: "completed", filesDone: 9 });
    expect(
      t.deps.db.prepare("SELECT count(*) FROM entries WHERE path LIKE 'dst/big%'").pluck().get(),
    ).toBe(12);
    expect(hidden()).toBe(0);
  });
});
