import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { FileEntry } from "@/contract/files";
import { ApiError } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { withoutIds } from "@/server/testing/engine-suites";
import { caught, type Engine, postgresEngine, sqliteEngine } from "./files-store.engines";
import { SEALED, seedHistory, T0, WS } from "./files-store.seed";

/*
 * The files store's trash and version units, one suite run once per engine on identically
 * seeded rows (files-store.engines.ts). Each test checks its answers, refusals and events; each
 * engine's transcript (every answer and event, ids replaced by their order of appearance) and
 * its rows afterwards are then compared across the engines, to the value.
 */

const NOW = T0 + 60_000;
const DAY_MS = 86_400_000;
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** Per engine: everything its units answered and recorded, in order. */
const transcripts: Record<string, unknown[]> = {};

/** The rows the units write, keyed by what both engines share (not ids, not trash ids). */
const STATE = {
  entries: `SELECT path, name, sort_key, is_file, size, mime, sha256, folder_count, file_count,
      version_count, revision, CASE WHEN trash_id IS NULL THEN 1 ELSE 0 END AS live,
      created_at, modified_at, protection
    FROM entries WHERE workspace_id = 'ws' AND path >= 'h' AND path < 'i' ORDER BY path, live`,
  versions: `SELECT e.path, v.sha256, v.size, v.mime, v.created_at, v.protection
    FROM file_versions v JOIN entries e ON e.id = v.entry_id
    ORDER BY e.path, v.created_at, v.sha256`,
  trash:
    "SELECT path, name, is_file, size_bytes, deleted_at, purge_at FROM trash_items ORDER BY path",
  blobs: "SELECT sha256, size, ref_count, created_at FROM blobs ORDER BY sha256",
  revision: "SELECT value FROM revision_counter",
};

const names = async (e: Engine, path: string) =>
  (
    JSON.parse(
      (await e.store.listPage(WS, { path, skip: 0, count: 50, sort: "name", order: "asc" })).items,
    ) as FileEntry[]
  ).map((f) => f.name);

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the files store's trash and versions on $engine", ({ engine, use }) => {
  const open = use(seedHistory);
  const log: unknown[] = [];
  transcripts[engine] = log;
  /** The answer (or refusal) and the events since `before`, kept for the comparison. */
  const step = async <T>(e: Engine, call: () => Promise<T>) => {
    const before = (await e.events()).length;
    let answer: unknown;
    try {
      answer = await call();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const { status, code, message, details } = err;
      answer = { refused: { status, code, message, details } };
    }
    const recorded = (await e.events()).slice(before);
    log.push({ answer, recorded });
    return { answer: answer as T, recorded };
  };
  const itemAt = async (e: Engine, path: string) =>
    (await e.store.listTrash(WS)).find((i) => i.path === path)!.id;

  it("lists the trash most recently deleted first", async () => {
    const e = open();
    const { answer } = await step(e, () => e.store.listTrash(WS));
    expect(answer.map(({ id: _, ...item }) => item)).toEqual(
      ["h/way/x.txt", "h/lost/deep/kid.txt", "h/taken.txt"].map((path) => ({
        path,
        name: path.split("/").at(-1),
        sizeBytes: { "h/way/x.txt": 1, "h/lost/deep/kid.txt": 3, "h/taken.txt": 5 }[path],
        deletedAt: toIso(T0),
        purgeAt: toIso(T0 + 30 * DAY_MS),
        type: "file",
      })),
    );
  });

  it("trashes a folder with its subtree and a file in one call, a path inside the folder going along", async () => {
    const e = open();
    const unknown = await step(e, () => e.store.remove(WS, ["h/doc.txt", "h/nope"], false));
    expect(unknown.answer).toMatchObject({
      refused: { status: 404, code: "not_found", details: { path: "h/nope" } },
    });
    expect(unknown.recorded).toEqual([]);
    const { recorded } = await step(e, () =>
      e.store.remove(WS, ["h/tree", "h/keep.txt", "h/tree/a/b.txt"], false),
    );
    const trash = await e.store.listTrash(WS);
    const tree = trash.find((i) => i.path === "h/tree")!;
    const keep = trash.find((i) => i.path === "h/keep.txt")!;
    expect([tree.type, tree.sizeBytes, keep.sizeBytes, tree.deletedAt]).toEqual([
      "folder",
      8,
      6,
      toIso(NOW),
    ]);
    expect(recorded).toEqual([
      {
        type: "file.trashed",
        data: {
          paths: ["h/keep.txt", "h/tree"],
          itemIds: [keep.id, tree.id],
          purgeAt: toIso(NOW + 30 * DAY_MS),
        },
      },
    ]);
    expect(await names(e, "h")).not.toContain("tree");
    expect((await caught(e.store.listVersions(WS, "h/tree/a/b.txt"))).status).toBe(404);
  });

  it("restores beside a taken name, into recreated parents, and refuses a file in the way", async () => {
    const e = open();
    const taken = await step(e, async () =>
      e.store.restoreTrashItem(WS, await itemAt(e, "h/taken.txt")),
    );
    expect(taken.answer).toEqual({ path: "h/taken (restored 2).txt", renamed: true });
    expect(taken.recorded).toEqual([
      {
        type: "file.restored",
        data: {
          paths: ["h/taken (restored 2).txt"],
          itemId: expect.any(String),
          originalPath: "h/taken.txt",
          renamed: true,
        },
      },
    ]);
    const kid = await step(e, async () =>
      e.store.restoreTrashItem(WS, await itemAt(e, "h/lost/deep/kid.txt")),
    );
    expect(kid.answer).toEqual({ path: "h/lost/deep/kid.txt", renamed: false });
    expect(await names(e, "h/lost/deep")).toEqual(["kid.txt"]);
    const way = await step(e, async () =>
      e.store.restoreTrashItem(WS, await itemAt(e, "h/way/x.txt")),
    );
    expect(way.answer).toMatchObject({
      refused: {
        code: "validation_failed",
        details: {
          issues: [
            { field: "path", message: '"h/way" is a file, not a folder', code: "file_in_the_way" },
          ],
        },
      },
    });
    expect(way.recorded).toEqual([]);
    const none = await step(e, () => e.store.restoreTrashItem(WS, "nosuchitem"));
    expect(none.answer).toMatchObject({
      refused: { status: 404, details: { itemId: "nosuchitem" } },
    });
    const tree = await step(e, async () => e.store.restoreTrashItem(WS, await itemAt(e, "h/tree")));
    expect(tree.answer).toEqual({ path: "h/tree", renamed: false });
    expect(await names(e, "h/tree/a")).toEqual(["b.txt"]);
    expect(await e.store.listVersions(WS, "h/tree/a/b.txt")).toHaveLength(1);
  });

  it("purges an item and deletes for good, releasing every blob reference they held", async () => {
    const e = open();
    const refs = async () =>
      Object.fromEntries(
        (await e.rows<{ sha256: string; ref_count: number }>(STATE.blobs)).map((b) => [
          b.sha256,
          b.ref_count,
        ]),
      );
    const before = await refs();
    await step(e, () => e.store.remove(WS, ["h/tree"], false));
    const itemId = await itemAt(e, "h/tree");
    const purged = await step(e, () => e.store.purgeTrashItem(WS, itemId));
    expect(purged.recorded).toEqual([
      { type: "file.deleted", data: { paths: ["h/tree"], itemId } },
    ]);
    const gone = await step(e, () => e.store.remove(WS, ["h/taken.txt"], true));
    expect(gone.recorded).toEqual([{ type: "file.deleted", data: { paths: ["h/taken.txt"] } }]);
    const after = await refs();
    // c.txt and b.txt's kept version held "shared", b.txt "b2", taken.txt "second".
    expect([after[sha("shared")], after[sha("b2")], after[sha("second")]]).toEqual([
      before[sha("shared")]! - 2,
      before[sha("b2")]! - 1,
      before[sha("second")]! - 1,
    ]);
    expect(await names(e, "h")).not.toContain("taken.txt");
    expect((await e.store.listTrash(WS)).map((i) => i.path)).toEqual(["h/keep.txt", "h/way/x.txt"]);
    const again = await step(e, () => e.store.purgeTrashItem(WS, itemId));
    expect(again.answer).toMatchObject({ refused: { status: 404, details: { itemId } } });
  });

  it("lists a file's versions newest first and refuses a folder and an unknown path", async () => {
    const e = open();
    const { answer } = await step(e, () => e.store.listVersions(WS, "h/doc.txt"));
    expect(answer.map(({ id: _, ...v }) => v)).toEqual(
      [3, 2, 1].map((i) => ({
        path: "h/doc.txt",
        sizeBytes: 6,
        createdAt: toIso(T0 + i * 1000),
        sha256: sha(`doc v${i}`),
      })),
    );
    const folder = await step(e, () => e.store.listVersions(WS, "h"));
    expect(folder.answer).toMatchObject({
      refused: {
        details: {
          issues: [
            {
              field: "query.path",
              code: "not_a_file",
              message: '"h" is a folder; folders have no versions',
            },
          ],
        },
      },
    });
    const none = await step(e, () => e.store.listVersions(WS, "h/none"));
    expect(none.answer).toMatchObject({ refused: { status: 404, details: { path: "h/none" } } });
  });

  it("restores a version: the replaced content kept, the oldest beyond the limit dropped, protection following each content", async () => {
    const e = open();
    const versions = async (path: string) =>
      (await e.store.listVersions(WS, path)).map((v) => [v.id, v.sha256] as const);
    const newest = async (path: string) => (await versions(path))[0]![0];
    const old = await versions("h/old.txt");
    expect(old.map(([, s]) => s)).toEqual([4, 3, 2, 1, 0].map((i) => sha(`old v${i}`)));
    const { recorded } = await step(e, () => e.store.restoreVersion(WS, old[2]![0]));
    expect(recorded).toEqual([
      { type: "file.version_restored", data: { paths: ["h/old.txt"], versionId: old[2]![0] } },
    ]);
    expect((await versions("h/old.txt")).map(([, s]) => s)).toEqual(
      [5, 4, 3].map((i) => sha(`old v${i}`)),
    );
    const refs = await e.rows<{ sha256: string; ref_count: number }>(STATE.blobs);
    const ref = (text: string) => refs.find((b) => b.sha256 === sha(text))!.ref_count;
    expect([ref("old v0"), ref("old v1"), ref("old v2"), ref("old v5")]).toEqual([0, 0, 1, 1]);
    const page = JSON.parse(
      (await e.store.listPage(WS, { path: "h", skip: 0, count: 50, sort: "name", order: "asc" }))
        .items,
    ) as FileEntry[];
    expect(page.find((f) => f.name === "old.txt")).toMatchObject({
      sha256: sha("old v2"),
      versionCount: 3,
      modifiedAt: toIso(NOW),
    });
    const protection = async () =>
      (
        await e.rows<{ sha256: string; protection: string | null }>(
          `SELECT sha256, protection FROM entries WHERE path = 'h/secret.bin'
           UNION ALL SELECT v.sha256, v.protection FROM file_versions v
             JOIN entries e ON e.id = v.entry_id WHERE e.path = 'h/secret.bin'`,
        )
      ).map((r) => [r.sha256 === sha("sealed") ? "sealed" : "plain", r.protection]);
    const sealed = await newest("h/secret.bin");
    await step(e, () => e.store.restoreVersion(WS, sealed));
    expect(await protection()).toEqual([
      ["sealed", SEALED],
      ["plain", null],
    ]);
    const plain = await newest("h/secret.bin");
    await step(e, () => e.store.restoreVersion(WS, plain));
    expect(await protection()).toEqual([
      ["plain", null],
      ["sealed", SEALED],
    ]);
    const unknown = await step(e, () => e.store.restoreVersion(WS, sealed));
    expect(unknown.answer).toMatchObject({
      refused: { status: 404, details: { versionId: sealed } },
    });
    const trashed = await newest("h/secret.bin");
    await e.store.remove(WS, ["h/secret.bin"], false);
    const ofTrashed = await step(e, () => e.store.restoreVersion(WS, trashed));
    expect(ofTrashed.answer).toMatchObject({ refused: { status: 404 } });
    log.push({ state: await Promise.all(Object.values(STATE).map((sql) => e.rows(sql))) });
  });
});

describe("the trash and versions on PostgreSQL and SQLite", () => {
  it("answer, record and leave the rows alike, revisions included", () => {
    const [sqlite, postgres] = [transcripts.SQLite!, transcripts.PostgreSQL!];
    expect(sqlite.length).toBeGreaterThan(20);
    expect(withoutIds(postgres)).toEqual(withoutIds(sqlite));
  });
});
