import { describe, expect, it } from "vitest";
import { type RenameBatchBody, renameBatchBodySchema } from "@/contract/operations";
import { postgresEngine, sqliteEngine } from "@/server/modules/files/files-store.engines";
import { T0, WS } from "@/server/modules/files/files-store.seed";
import { refusal } from "@/server/testing/engine-suites";

/*
 * The batch rename's contract (FilesStore.renameBatch) on both engines: the same answers, plan
 * ids included, and the same rows, events and blob references after each unit. Each test works
 * in a folder of its own under `rn`; the tests run in order, so SQLite's run records what each
 * one left and PostgreSQL's is held to it.
 */

/** Written at T0 through the seeded FilesService, before the rows are moved to PostgreSQL. */
const FILES: Record<string, string> = {
  "rn/plain/a.txt": "a",
  "rn/plain/b.txt": "b",
  "rn/stale/s.txt": "s",
  "rn/conf/x.txt": "x",
  "rn/conf/y.txt": "y",
  "rn/seq/shot_0001.exr": "f1",
  "rn/seq/shot_0002.exr": "f2",
  "rn/seq/shot_0003.exr": "f3",
  "rn/seq/shot_01.exr": "other set",
  "rn/seq/notes.txt": "n",
  "rn/fold/dirA/in.txt": "in",
  "rn/fold/dirA/sub/deep.txt": "deep",
  "rn/swap/a.b/in.txt": "in a.b",
  "rn/swap/b.a/in.txt": "in b.a",
  "rn/over/new.txt": "new v0",
  "rn/over/old.txt": "old v0",
};

const parse = (body: RenameBatchBody) => renameBatchBodySchema.parse(body);
const SEALED = '{"alg":"aes-256-gcm","iv":"seeded"}';

/** What each test saw on SQLite, by test: PostgreSQL must see the same. */
const seen = new Map<string, unknown>();
const alike = (key: string, value: unknown) => {
  if (!seen.has(key)) seen.set(key, value);
  else expect(value).toEqual(seen.get(key));
};

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the batch rename on $engine", ({ use }) => {
  const open = use(async ({ files }) => {
    for (const [p, content] of Object.entries(FILES))
      await files.writeFile(WS, p, content, { modifiedAt: T0 });
    // More versions, together, than the seed's VERSIONS_KEEP (3): the overwrite drops the oldest.
    await files.writeFile(WS, "rn/over/new.txt", "new v1", { modifiedAt: T0 + 1000 });
    await files.writeFile(WS, "rn/over/new.txt", "new v2", { modifiedAt: T0 + 2000 });
    await files.writeFile(WS, "rn/over/old.txt", "old v1", { modifiedAt: T0 + 1000 });
    // Content protection is a label of how each content's bytes are stored: it goes with them.
    await files.writeFile(WS, "rn/prot/sealed.txt", "sealed", {
      modifiedAt: T0,
      protection: SEALED,
    });
    await files.writeFile(WS, "rn/prot/open.txt", "open", { modifiedAt: T0 });
    await files.writeFile(WS, "rn/prot2/open.txt", "open 2", { modifiedAt: T0 });
    await files.writeFile(WS, "rn/prot2/sealed.txt", "sealed 2", {
      modifiedAt: T0,
      protection: SEALED,
    });
  });

  const paths = async (under: string) =>
    (
      await open().rows<{ path: string }>(
        `SELECT path FROM entries WHERE workspace_id = '${WS}' AND trash_id IS NULL
         AND path LIKE '${under}/%' ORDER BY path`,
      )
    ).map((r) => r.path);

  /** Every row a rename can touch, compared whole between the engines. */
  const state = async () => {
    const { rows, events } = open();
    return {
      entries: await rows(
        `SELECT id, parent_id, name, sort_key, path, is_file, size, mime, sha256, modified_at,
           folder_count, file_count, version_count, revision, trash_id, protection
         FROM entries WHERE path LIKE 'rn%' ORDER BY id`,
      ),
      versions: await rows(
        "SELECT entry_id, sha256, size, mime, created_at, protection FROM file_versions ORDER BY entry_id, sha256, created_at",
      ),
      blobs: await rows("SELECT sha256, size, ref_count FROM blobs ORDER BY sha256"),
      events: (await events()).filter((e) => e.type === "file.renamed"),
    };
  };

  it("plans without renaming, the plan's id the same on both engines", async () => {
    const body = { paths: ["rn/plain/a.txt", "rn/plain/b.txt"], pattern: { prefix: "p-" } };
    const dry = await open().store.renameBatch(WS, parse({ ...body, dryRun: true }));
    expect(dry).toMatchObject({ dryRun: true, expanded: 2, changed: 2, failed: null });
    expect(dry.steps.map((s) => s.to)).toEqual(["rn/plain/p-a.txt", "rn/plain/p-b.txt"]);
    expect(await paths("rn/plain")).toEqual(["rn/plain/a.txt", "rn/plain/b.txt"]);
    alike("dry planId", dry.planId);

    const done = await open().store.renameBatch(WS, parse({ ...body, planId: dry.planId }));
    expect(done).toMatchObject({ dryRun: false, planId: dry.planId, failed: null });
    expect(done.applied.map((s) => s.to)).toEqual(["rn/plain/p-a.txt", "rn/plain/p-b.txt"]);
    expect(await paths("rn/plain")).toEqual(["rn/plain/p-a.txt", "rn/plain/p-b.txt"]);
    alike("apply", await state());
  });

  it("refuses a stale plan with plan_stale, renaming nothing", async () => {
    const body = { paths: ["rn/stale/s.txt"], pattern: { suffix: "-x" } };
    const dry = await open().store.renameBatch(WS, parse({ ...body, dryRun: true }));
    await open().store.createFolder(WS, "rn/stale/new");
    const err = await refusal(open().store.renameBatch(WS, parse({ ...body, planId: dry.planId })));
    expect(err).toMatchObject({ status: 400, code: "validation_failed" });
    expect(err.details).toMatchObject({ issues: [{ field: "planId", code: "plan_stale" }] });
    expect(await paths("rn/stale")).toEqual(["rn/stale/new", "rn/stale/s.txt"]);
    alike("stale", { err, state: await state() });
  });

  it("applies nothing when the plan has conflicts, and says why in failed", async () => {
    const done = await open().store.renameBatch(
      WS,
      parse({ paths: ["rn/conf/x.txt"], pattern: { find: "x", replace: "y" } }),
    );
    expect(done.failed).toMatchObject({
      from: "rn/conf/x.txt",
      to: "rn/conf/y.txt",
      code: "conflict",
    });
    expect(done.conflicts).toMatchObject([{ reason: "exists", existingType: "file" }]);
    expect(await paths("rn/conf")).toEqual(["rn/conf/x.txt", "rn/conf/y.txt"]);
    alike("conflict", { done, state: await state() });
  });

  it("expands a numbered set from one of its frames, and leaves other sets alone", async () => {
    const done = await open().store.renameBatch(
      WS,
      parse({ paths: ["rn/seq/shot_0002.exr"], pattern: { find: "shot", replace: "take" } }),
    );
    expect(done.expanded).toBe(3);
    expect(await paths("rn/seq")).toEqual([
      "rn/seq/notes.txt",
      "rn/seq/shot_01.exr",
      "rn/seq/take_0001.exr",
      "rn/seq/take_0002.exr",
      "rn/seq/take_0003.exr",
    ]);
    alike("sequence", { done, state: await state() });
  });

  it("moves a renamed folder's subtree, and swaps two folders' names through an aside", async () => {
    await open().store.renameBatch(
      WS,
      parse({ paths: ["rn/fold/dirA"], pattern: { find: "A", replace: "B" } }),
    );
    expect(await paths("rn/fold")).toEqual([
      "rn/fold/dirB",
      "rn/fold/dirB/in.txt",
      "rn/fold/dirB/sub",
      "rn/fold/dirB/sub/deep.txt",
    ]);
    const before = await open().rows<{ id: number; path: string }>(
      "SELECT id, path FROM entries WHERE path LIKE 'rn/swap/%/in.txt' ORDER BY id",
    );
    const swap = await open().store.renameBatch(
      WS,
      parse({
        paths: ["rn/swap/a.b", "rn/swap/b.a"],
        pattern: { find: "^(\\w)\\.(\\w)$", replace: "$2.$1", regex: true },
      }),
    );
    expect(swap.failed).toBeNull();
    const after = await open().rows<{ id: number; path: string }>(
      "SELECT id, path FROM entries WHERE path LIKE 'rn/swap/%/in.txt' ORDER BY id",
    );
    expect(after.map((r) => r.path)).toEqual(before.map((r) => r.path).reverse());
    alike("folders", { swap, state: await state() });
  });

  it("with overwrite, replaces a file: its content kept as a version, the renamed file's versions adopted", async () => {
    const [old] = await open().rows<{ id: number; sha256: string }>(
      "SELECT id, sha256 FROM entries WHERE path = 'rn/over/old.txt'",
    );
    const [renamed] = await open().rows<{ sha256: string }>(
      "SELECT sha256 FROM entries WHERE path = 'rn/over/new.txt'",
    );
    const done = await open().store.renameBatch(
      WS,
      parse({
        paths: ["rn/over/new.txt"],
        pattern: { find: "new", replace: "old" },
        overwrite: true,
      }),
    );
    expect(done.applied).toMatchObject([{ to: "rn/over/old.txt", overwrite: true }]);
    expect(await paths("rn/over")).toEqual(["rn/over/old.txt"]);
    const [now] = await open().rows<{ id: number; sha256: string; version_count: number }>(
      "SELECT id, sha256, version_count FROM entries WHERE path = 'rn/over/old.txt'",
    );
    expect(now).toMatchObject({ id: old!.id, sha256: renamed!.sha256, version_count: 3 });
    alike("overwrite", await state());
  });

  it("with overwrite, each content keeps its protection: the taken one's on the file, the kept one's on its version", async () => {
    const protections = async (path: string) => {
      const [entry] = await open().rows<{ id: number; protection: string | null }>(
        `SELECT id, protection FROM entries WHERE path = '${path}'`,
      );
      const versions = await open().rows<{ protection: string | null }>(
        `SELECT protection FROM file_versions WHERE entry_id = ${entry!.id}`,
      );
      return { file: entry!.protection, versions: versions.map((v) => v.protection) };
    };
    const over = (folder: string, from: string, to: string) =>
      open().store.renameBatch(
        WS,
        parse({
          paths: [`${folder}/${from}.txt`],
          pattern: { find: from, replace: to },
          overwrite: true,
        }),
      );
    await over("rn/prot", "sealed", "open");
    expect(await protections("rn/prot/open.txt")).toEqual({ file: SEALED, versions: [null] });
    await over("rn/prot2", "open", "sealed");
    expect(await protections("rn/prot2/sealed.txt")).toEqual({ file: null, versions: [SEALED] });
    alike("overwrite protection", await state());
  });
});
