import { describe, expect, it } from "vitest";
import type { FileEntry, FileSortField, SortOrder } from "@/contract/files";
import { fileSortFields, nameSortKey, sortOrders } from "@/contract/rules";
import type { FilesStore, SqliteFilesStore } from "./files-store";
import { caught, postgresEngine, sqliteEngine } from "./files-store.engines";
import type { PgFilesStore } from "./files-store.pg";
import { BIG_COUNT, MIX_FILES, MIX_FOLDERS, WS } from "./files-store.seed";

const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A folder's entries in the listing's order, computed here from names, sizes and dates alone. */
function expectedOrder(rows: FileEntry[], sort: FileSortField, order: SortOrder) {
  const value = (e: FileEntry) =>
    sort === "size" ? (e.sizeBytes ?? 0) : sort === "modified" ? Date.parse(e.modifiedAt) : 0;
  const dir = order === "asc" ? 1 : -1;
  const part = (type: string) =>
    rows
      .filter((e) => e.type === type)
      .sort(
        (a, b) => dir * (value(a) - value(b) || bytes(nameSortKey(a.name), nameSortKey(b.name))),
      );
  return [...part("folder"), ...part("file")].map((e) => e.name);
}

/** A manifest's chunks, joined. */
async function text(chunks: Promise<AsyncGenerator<string>>) {
  let all = "";
  for await (const chunk of await chunks) all += chunk;
  return all;
}

/** Both engines' stores hold FilesLimits. */
const limitManifest = (store: FilesStore, limit: number) => {
  (store as SqliteFilesStore | PgFilesStore).limits.manifest = limit;
};

async function allPages(
  store: FilesStore,
  path: string,
  sort: FileSortField,
  order: SortOrder,
  count: number,
) {
  const seen: FileEntry[] = [];
  let total = Number.POSITIVE_INFINITY;
  for (let skip = 0; skip < total; skip += count) {
    const page = await store.listPage(WS, { path, skip, count, sort, order });
    total = page.total;
    seen.push(...(JSON.parse(page.items) as FileEntry[]));
  }
  return { seen, total };
}

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the files store on $engine", ({ use }) => {
  const open = use();

  it("pages through a folder of mixed names in every sort order without gaps or repeats", async () => {
    const { store } = open();
    const runs = [
      ...fileSortFields.flatMap((sort) => sortOrders.map((order) => ({ sort, order, count: 300 }))),
      { sort: "name" as const, order: "asc" as const, count: 7 },
    ];
    for (const { sort, order, count } of runs) {
      const { seen, total } = await allPages(store, "big", sort, order, count);
      expect(total).toBe(BIG_COUNT);
      expect(new Set(seen.map((e) => e.name)).size).toBe(BIG_COUNT);
      expect(seen.map((e) => e.name)).toEqual(expectedOrder(seen, sort, order));
    }
  });

  it("orders names byte by byte, as SQLite does: digits, _ and . before letters, accented letters last", async () => {
    const { store } = open();
    const page = await store.listPage(WS, {
      path: "mix",
      skip: 0,
      count: 100,
      sort: "name",
      order: "asc",
    });
    expect(page.total).toBe(MIX_FOLDERS.length + MIX_FILES.length);
    expect((JSON.parse(page.items) as FileEntry[]).map((e) => e.name)).toEqual([
      ".git",
      "_tmp",
      "Dir 9",
      "dir 10",
      "Édition",
      ".hidden",
      "9.txt",
      "10.txt",
      "100% done.txt",
      "_x.txt",
      "a%b.txt",
      "a_b.txt",
      "Alpha.txt",
      "alpha_2.txt",
      "ALPHA_10.txt",
      "axb.txt",
      "eta.txt",
      "naïve.doc",
      "Plate.exr",
      "plate.exr",
      "zebra.mov",
      "été 2.txt",
      "Été.txt",
      "Ñandú.png",
      "Ümlaut.TXT",
      "ümlaut.txt",
    ]);
    const middle = await store.listPage(WS, {
      path: "mix",
      skip: 3,
      count: 4,
      sort: "name",
      order: "desc",
    });
    expect((JSON.parse(middle.items) as FileEntry[]).map((e) => e.name)).toEqual([
      "_tmp",
      ".git",
      "ümlaut.txt",
      "Ümlaut.TXT",
    ]);
  });

  it("searches names: 1 and 2 characters, % and _ taken literally, accents folded as SQLite folds them", async () => {
    const { store } = open();
    const found = async (q: string, path = "mix", limit = 100) =>
      (await store.search(WS, { q, path, limit })).map((r) => [r.name, r.match]);
    expect(await found("a%b")).toEqual([["a%b.txt", "prefix"]]);
    expect(await found("a_b")).toEqual([["a_b.txt", "prefix"]]);
    expect(await found("a.b")).toEqual([]);
    expect(await found("(a|x)")).toEqual([]);
    expect(await found("_b")).toEqual([["a_b.txt", "substring"]]);
    expect(await found("%")).toEqual([
      ["100% done.txt", "substring"],
      ["a%b.txt", "substring"],
    ]);
    expect(await found("É")).toEqual([
      ["Édition", "prefix"],
      ["Été.txt", "prefix"],
    ]);
    expect(await found("été")).toEqual([
      ["été 2.txt", "prefix"],
      ["Été.txt", "substring"],
    ]);
    expect(await found("ümlaut.txt")).toEqual([
      ["ümlaut.txt", "exact"],
      ["Ümlaut.TXT", "substring"],
    ]);
    expect(await found("PLATE")).toEqual([
      ["Plate.exr", "prefix"],
      ["plate.exr", "prefix"],
    ]);
    expect(await found("a", "mix", 3)).toEqual([
      ["a%b.txt", "prefix"],
      ["a_b.txt", "prefix"],
      ["Alpha.txt", "prefix"],
    ]);
    expect(await found("zebra", "big")).toEqual([]);
    expect((await caught(store.search(WS, { q: "x", path: "nowhere", limit: 5 }))).status).toBe(
      404,
    );
  });

  it("refuses a taken name, an unknown path and a bad name, and writes nothing then", async () => {
    const { store, events } = open();
    const before = (await events()).length;
    const taken = await caught(store.rename(WS, "r/a.txt", "b.txt"));
    expect([taken.code, taken.details]).toEqual([
      "validation_failed",
      { issues: [{ field: "newName", message: '"r/b.txt" already exists', code: "conflict" }] },
    ]);
    expect((await caught(store.rename(WS, "r/none.txt", "n.txt"))).code).toBe("not_found");
    expect((await caught(store.rename(WS, "r/a.txt", "x/y"))).code).toBe("validation_failed");
    expect((await caught(store.rename(WS, "r/a.txt", "bad\uD800"))).code).toBe("path_rejected");
    expect((await caught(store.createFolder(WS, "r/a.txt/inside"))).details).toMatchObject({
      issues: [{ code: "file_in_the_way" }],
    });
    expect((await caught(store.createFolder(WS, "r//x"))).code).toBe("path_rejected");
    expect(await events()).toHaveLength(before);
  });

  it("renames a folder with its subtree, a file to a name with a trailing space, and records each rename", async () => {
    const { store, events } = open();
    const names = async (path: string) =>
      (
        JSON.parse(
          (await store.listPage(WS, { path, skip: 0, count: 50, sort: "name", order: "asc" }))
            .items,
        ) as FileEntry[]
      ).map((e) => e.path);
    expect(await names("r")).toEqual(["r/dir", "r/a.txt", "r/b.txt", "r/c.txt"]);
    await store.rename(WS, "r/dir", "Dír é");
    await store.rename(WS, "r/c.txt", "C.TXT ");
    await store.rename(WS, "r/a.txt", "a.txt");
    expect(await names("r")).toEqual(["r/Dír é", "r/a.txt", "r/b.txt", "r/C.TXT "]);
    expect(await names("r/Dír é")).toEqual(["r/Dír é/sub", "r/Dír é/x.txt"]);
    expect(await names("r/Dír é/sub")).toEqual(["r/Dír é/sub/deep.txt"]);
    expect(
      (
        await caught(
          store.listPage(WS, { path: "r/dir", skip: 0, count: 5, sort: "name", order: "asc" }),
        )
      ).status,
    ).toBe(404);
    expect((await store.search(WS, { q: "deep", path: "r", limit: 5 })).map((e) => e.path)).toEqual(
      ["r/Dír é/sub/deep.txt"],
    );
    expect((await events()).slice(-2)).toEqual([
      { type: "file.renamed", data: { paths: ["r/Dír é"], from: "r/dir", to: "r/Dír é" } },
      { type: "file.renamed", data: { paths: ["r/C.TXT "], from: "r/c.txt", to: "r/C.TXT " } },
    ]);
  });

  it("writes a folder's manifest in path order, and refuses an unknown path and a file", async () => {
    const { store } = open();
    const body = JSON.parse(await text(store.manifest(WS, "mix")));
    expect(body.files.map((f: { path: string }) => f.path)).toEqual(
      [...MIX_FILES].sort((a, b) => bytes(a, b)),
    );
    expect([body.root, body.fileCount, body.truncated]).toEqual(["mix", MIX_FILES.length, false]);
    expect((await caught(store.manifest(WS, "nowhere"))).status).toBe(404);
    expect((await caught(store.manifest(WS, "mix/9.txt"))).details).toMatchObject({
      issues: [{ field: "query.path", code: "not_a_folder" }],
    });
  });

  it("creates a folder and its parents once, with one event", async () => {
    const { store, events } = open();
    expect(await store.createFolder(WS, "r/new/deeper")).toBe(true);
    expect(await store.createFolder(WS, "r/new")).toBe(false);
    expect((await events()).at(-1)).toEqual({
      type: "file.created",
      data: { paths: ["r/new", "r/new/deeper"] },
    });
    const page = await store.listPage(WS, {
      path: "r/new",
      skip: 0,
      count: 5,
      sort: "name",
      order: "asc",
    });
    expect([page.total, (JSON.parse(page.items) as FileEntry[])[0]!.childCount]).toEqual([1, 0]);
  });
});

describe("PostgreSQL and SQLite on the same rows", () => {
  const sqlite = sqliteEngine();
  const postgres = postgresEngine();

  it("answer every page and every search alike, to the byte", async () => {
    const [a, b] = [sqlite().store, postgres().store];
    for (const path of ["", "mix", "big"]) {
      for (const sort of fileSortFields) {
        for (const order of sortOrders) {
          for (const skip of [0, 3, 40, 2047, 2100, 2299]) {
            const q = { path, skip, count: 60, sort, order };
            expect(await b.listPage(WS, q)).toEqual(await a.listPage(WS, q));
          }
        }
      }
    }
    for (const limit of [100, 100_000]) {
      for (const store of [a, b]) limitManifest(store, limit);
      for (const path of ["", "mix", "big"])
        expect(await text(b.manifest(WS, path))).toBe(await text(a.manifest(WS, path)));
    }
    const texts = [
      "a",
      "e",
      "É",
      "é",
      "_",
      "%",
      "a_",
      "1",
      "Shot",
      "élan",
      "ÉLAN_1",
      "lan ",
      "9li",
      ".cfg",
      "_tmp1",
      "zz",
      "5.exr",
    ];
    for (const q of texts) {
      for (const path of ["", "mix", "big"]) {
        for (const limit of [5, 500]) {
          expect(await b.search(WS, { q, path, limit })).toEqual(
            await a.search(WS, { q, path, limit }),
          );
        }
      }
    }
  });
});
