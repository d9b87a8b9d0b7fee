import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "@/server/env";
import { ManualClock } from "@/server/lib/clock";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { sortKey } from "./files.repository";
import { restoredName } from "./trash";

let t: TestApp;
let clock: ManualClock;
const DAY = 86_400_000;
const HOUR = 3_600_000;

beforeEach(async () => {
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  t = await createTestApp({ clock });
});
afterEach(() => t.close());

const write = (p: string, content: string | Buffer = p) =>
  t.deps.files.writeFile(t.workspaceId, p, content);
const list = async (path = "", extra = "") =>
  (await t.call("GET", t.w(`/files?path=${encodeURIComponent(path)}${extra}`))).json;
const names = async (path = "", extra = "") =>
  (await list(path, extra)).items.map((i: { name: string }) => i.name);
const blobCount = () => t.deps.db.prepare("SELECT count(*) FROM blobs").pluck().get();

describe("listing", () => {
  it("lists folders first, then files, in natural case-insensitive name order, with an exact total", async () => {
    for (const n of ["b.txt", "a10.txt", "A2.txt", "Zeta"]) await write(n);
    await t.call("POST", t.w("/files/folder"), { body: { path: "zoo" } });
    await t.call("POST", t.w("/files/folder"), { body: { path: "Alpha" } });
    const res = await list();
    expect(res).toMatchObject({ path: "", access: "write", total: 6 });
    expect(res.items.map((i: { name: string }) => i.name)).toEqual([
      "Alpha",
      "zoo",
      "A2.txt",
      "a10.txt",
      "b.txt",
      "Zeta",
    ]);
    const file = res.items[2];
    expect(file).toMatchObject({
      path: "A2.txt",
      type: "file",
      sizeBytes: 6,
      mimeType: "text/plain",
      childCount: null,
      versionCount: 0,
    });
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(res.items[0]).toMatchObject({ type: "folder", sizeBytes: null, childCount: 0 });
  });

  it("pages with skip and count, deep pages included, and keeps the total exact", async () => {
    const { repo } = t.deps.files;
    const root = t.deps.files.ensureFolder(t.workspaceId, "big", clock.now());
    t.deps.db.transaction(() => {
      for (let i = 0; i < 5000; i++)
        repo.insert(
          root,
          `f${String(i).padStart(5, "0")}.dat`,
          { size: i, mime: "x/y", sha256: "0".repeat(64) },
          clock.now(),
        );
      for (let i = 0; i < 3; i++) repo.insert(root, `dir${i}`, null, clock.now());
    })();
    const first = await list("big", "&count=5");
    expect(first.total).toBe(5003);
    expect(first.items.map((i: { name: string }) => i.name)).toEqual([
      "dir0",
      "dir1",
      "dir2",
      "f00000.dat",
      "f00001.dat",
    ]);
    for (const skip of [2, 2047, 2048, 3000, 4999, 5001]) {
      const page = await list("big", `&skip=${skip}&count=3`);
      const expected = [skip, skip + 1, skip + 2]
        .filter((n) => n < 5003)
        .map((n) => (n < 3 ? `dir${n}` : `f${String(n - 3).padStart(5, "0")}.dat`));
      expect(page.items.map((i: { name: string }) => i.name)).toEqual(expected);
    }
    expect((await list("big", "&skip=6000")).items).toEqual([]);
    // The position cache follows changes: one more entry early in the order shifts deep pages.
    await write("big/a-first.dat");
    expect((await list("big", "&skip=3003&count=1")).items[0].name).toBe("f02999.dat");
    expect((await list("big", "&skip=3003&count=1&sort=size&order=desc")).items[0].name).toBe(
      "f01999.dat",
    );
  });

  it("never serves a stale page: counts, versions and renamed paths show at once", async () => {
    await write("p/sub/a.txt", "1");
    const before = (await list("p")).items[0];
    expect(before).toMatchObject({ path: "p/sub", childCount: 1 });
    await write("p/sub/b.txt");
    expect((await list("p")).items[0].childCount).toBe(2);
    await write("p/sub/a.txt", "2");
    expect((await list("p/sub")).items[0].versionCount).toBe(1);
    await t.call("PATCH", t.w("/files"), { body: { path: "p", newName: "q" } });
    expect((await list("q/sub")).items.map((i: { path: string }) => i.path)).toEqual([
      "q/sub/a.txt",
      "q/sub/b.txt",
    ]);
    await t.call("DELETE", t.w("/files"), { body: { paths: ["q/sub/b.txt"] } });
    expect((await list("q")).items[0].childCount).toBe(1);
  });

  it("never serves the pages of a deleted folder to one recreated at its path under the same id", async () => {
    for (const how of ["permanent", "purge"]) {
      await write("X/a.txt");
      expect(await names("X")).toEqual(["a.txt"]);
      const old = t.deps.files.get(t.workspaceId, "X");
      if (how === "permanent") {
        await t.call("DELETE", t.w("/files"), { body: { paths: ["X"], permanent: true } });
      } else {
        await t.call("DELETE", t.w("/files"), { body: { paths: ["X"] } });
        const [item] = (await t.call("GET", t.w("/files/trash"))).json;
        await t.call("DELETE", t.w(`/files/trash/${item.id}`));
      }
      await write("X/b.txt");
      // SQLite hands the freed highest id to the new folder: the case the cache must survive.
      expect(t.deps.files.get(t.workspaceId, "X").id).toBe(old.id);
      expect(await names("X")).toEqual(["b.txt"]);
      await t.call("DELETE", t.w("/files"), { body: { paths: ["X"], permanent: true } });
    }
  });

  it("sorts by size or modified date as an extension, folders still first", async () => {
    await write("small.txt", "x");
    clock.advance(1000);
    await write("large.txt", "x".repeat(100));
    clock.advance(1000);
    await write("mid.txt", "x".repeat(10));
    await t.call("POST", t.w("/files/folder"), { body: { path: "dir" } });
    expect(await names("", "&sort=size")).toEqual(["dir", "small.txt", "mid.txt", "large.txt"]);
    expect(await names("", "&sort=size&order=desc")).toEqual([
      "dir",
      "large.txt",
      "mid.txt",
      "small.txt",
    ]);
    expect(await names("", "&sort=modified&order=desc")).toEqual([
      "dir",
      "mid.txt",
      "large.txt",
      "small.txt",
    ]); // The listing says which order it is in, so a console can tell a service that ignored sort.
    const listing = (await t.call("GET", t.w("/files?sort=size&order=desc"))).json;
    expect([listing.sort, listing.order]).toEqual(["size", "desc"]);
    expect((await t.call("GET", t.w("/files"))).json).toMatchObject({ sort: "name", order: "asc" });
  });

  it("answers 404 for an unknown folder and validation_failed for a file", async () => {
    await write("a.txt");
    expect((await t.call("GET", t.w("/files?path=nope"))).json.error.code).toBe("not_found");
    const res = await t.call("GET", t.w("/files?path=a.txt"));
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
  });

  it("orders names naturally", () => {
    const sorted = ["frame10", "Frame2", "frame1", "frame01"].sort((a, b) =>
      sortKey(a) < sortKey(b) ? -1 : 1,
    );
    expect(sorted).toEqual(["frame01", "frame1", "Frame2", "frame10"]);
  });
});

describe("bad input", () => {
  const rejected = [
    "/abs",
    "a/../b",
    "..",
    "a\\b",
    "a//b",
    "a/",
    "a\u0000b",
    "a\u0007b",
    "a\u007fb",
    "a\u0085b",
    "a/\u009f",
    "./a",
  ];

  it.each(rejected)("rejects %j with 400 path_rejected everywhere a path is taken", async (bad) => {
    const q = encodeURIComponent(bad);
    const calls = [
      t.call("GET", t.w(`/files?path=${q}`)),
      t.call("GET", t.w(`/files/search?q=x&path=${q}`)),
      t.call("GET", t.w(`/files/manifest?path=${q}`)),
      t.call("GET", t.w(`/files/versions?path=${q}`)),
      t.call("GET", t.w(`/files/preview?path=${q}`)),
      t.call("POST", t.w("/files/folder"), { body: { path: bad } }),
      t.call("PATCH", t.w("/files"), { body: { path: bad, newName: "x" } }),
      t.call("DELETE", t.w("/files"), { body: { paths: ["ok", bad] } }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("path_rejected");
    }
  });

  it.each([["a/b"], ["x".repeat(256)], [""], [".."], ["a\u0080b"], ["a\u007f"]])(
    "refuses the new name %j with validation_failed",
    async (newName) => {
      await write("a.txt");
      const res = await t.call("PATCH", t.w("/files"), { body: { path: "a.txt", newName } });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("validation_failed");
    },
  );

  it("cannot rename or delete the root", async () => {
    for (const res of [
      await t.call("PATCH", t.w("/files"), { body: { path: "", newName: "x" } }),
      await t.call("DELETE", t.w("/files"), { body: { paths: [""] } }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("validation_failed");
    }
  });

  it("bounds delete to 500 paths and search text to 200 characters", async () => {
    const many = Array.from({ length: 501 }, (_, i) => `f${i}`);
    expect((await t.call("DELETE", t.w("/files"), { body: { paths: many } })).json.error.code).toBe(
      "validation_failed",
    );
    expect((await t.call("GET", t.w(`/files/search?q=${"a".repeat(201)}`))).json.error.code).toBe(
      "validation_failed",
    );
    expect((await t.call("GET", t.w("/files?count=1001"))).json.error.code).toBe(
      "validation_failed",
    );
  });

  it("needs files:write to change anything; files:read may only read", async () => {
    const key = t.keyWith(["files:read"]);
    expect((await t.call("GET", t.w("/files"), { key })).json.access).toBe("read");
    for (const [method, url, body] of [
      ["POST", "/files/folder", { path: "x" }],
      ["PATCH", "/files", { path: "x", newName: "y" }],
      ["DELETE", "/files", { paths: ["x"] }],
      ["POST", "/files/trash/abc/restore", undefined],
      ["DELETE", "/files/trash/abc", undefined],
      ["POST", "/files/versions/abc/restore", undefined],
    ] as const) {
      const res = await t.call(method, t.w(url), { key, body });
      expect(res.status).toBe(403);
      expect(res.json.error.details.requiredScopes).toEqual(["files:write"]);
    }
    const writer = t.keyWith(["files:write"]);
    expect((await t.call("GET", t.w("/files"), { key: writer })).status).toBe(403);
  });
});

describe("create folder", () => {
  it("creates missing parents, answers 201 for an existing folder, refuses a file in the way", async () => {
    const res = await t.call("POST", t.w("/files/folder"), { body: { path: "a/b/c" } });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ ok: true });
    expect(await names("a/b")).toEqual(["c"]);
    expect((await t.call("POST", t.w("/files/folder"), { body: { path: "a/b" } })).status).toBe(
      201,
    );
    await write("a/file.txt");
    for (const path of ["a/file.txt", "a/file.txt/sub"]) {
      const bad = await t.call("POST", t.w("/files/folder"), { body: { path } });
      expect(bad.status).toBe(400);
      expect(bad.json.error.code).toBe("validation_failed");
      expect(bad.json.error.message).toContain("a/file.txt");
    }
  });
});

describe("rename", () => {
  it("renames a folder with its subtree and refuses a conflict naming it", async () => {
    await write("a/x/deep.txt");
    await write("b.txt");
    expect(
      (await t.call("PATCH", t.w("/files"), { body: { path: "a", newName: "renamed" } })).status,
    ).toBe(200);
    expect(await names("renamed/x")).toEqual(["deep.txt"]);
    expect((await list("renamed/x")).items[0].path).toBe("renamed/x/deep.txt");
    expect((await t.call("GET", t.w("/files?path=a"))).status).toBe(404);
    const conflict = await t.call("PATCH", t.w("/files"), {
      body: { path: "b.txt", newName: "renamed" },
    });
    expect(conflict.status).toBe(400);
    expect(conflict.json.error).toMatchObject({ code: "validation_failed" });
    expect(conflict.json.error.details.issues[0]).toMatchObject({
      field: "newName",
      code: "conflict",
    });
    expect(conflict.json.error.message).toContain('"renamed"');
    expect(
      (await t.call("PATCH", t.w("/files"), { body: { path: "b.txt", newName: "b.txt" } })).status,
    ).toBe(200);
    expect(
      (await t.call("PATCH", t.w("/files"), { body: { path: "nope", newName: "x" } })).status,
    ).toBe(404);
  });
  it("renames a folder named outside the BMP without cutting its descendants' paths", async () => {
    await write("🎬/c.txt");
    await write("🎬/🎞 sub/d.txt");
    await write("🎬x.txt");
    await t.call("PATCH", t.w("/files"), { body: { path: "🎬/🎞 sub", newName: "sub" } });
    expect((await list("🎬/sub")).items[0].path).toBe("🎬/sub/d.txt");
    await t.call("PATCH", t.w("/files"), { body: { path: "🎬", newName: "R" } });
    expect((await list("R")).items.map((i: { path: string }) => i.path)).toEqual([
      "R/sub",
      "R/c.txt",
    ]);
    expect((await list("R/sub")).items[0].path).toBe("R/sub/d.txt");
    expect(await names()).toEqual(["R", "🎬x.txt"]);
    await t.call("PATCH", t.w("/files"), { body: { path: "R", newName: "🎬🎬" } });
    const manifest = (await t.call("GET", t.w("/files/manifest"))).json.files;
    expect(manifest.map((f: { path: string }) => f.path)).toEqual([
      "🎬x.txt",
      "🎬🎬/c.txt",
      "🎬🎬/sub/d.txt",
    ]);
  });
});

describe("delete and trash", () => {
  it("is all or nothing: one unknown path and nothing changes", async () => {
    await write("a.txt");
    await write("b.txt");
    const res = await t.call("DELETE", t.w("/files"), {
      body: { paths: ["a.txt", "missing.txt", "b.txt"] },
    });
    expect(res.status).toBe(404);
    expect(res.json.error.details).toEqual({ path: "missing.txt" });
    expect(await names()).toEqual(["a.txt", "b.txt"]);
    expect((await t.call("GET", t.w("/files/trash"))).json).toEqual([]);
  });

  it("trashes a folder as one item with its original path, size and purge date, and restores it", async () => {
    await write("p/shots/a.txt", "aaaa");
    await write("p/shots/sub/b.txt", "bb");
    await write("p/shots/sub/b.txt", "bbb");
    const del = await t.call("DELETE", t.w("/files"), {
      body: { paths: ["p/shots", "p/shots/sub/b.txt"] },
    });
    expect(del.status).toBe(200);
    expect((await list("p")).total).toBe(0);
    const trash = (await t.call("GET", t.w("/files/trash"))).json;
    expect(trash).toHaveLength(1);
    expect(trash[0]).toMatchObject({
      path: "p/shots",
      name: "shots",
      type: "folder",
      sizeBytes: 7,
      deletedAt: "2026-06-01T12:00:00.000Z",
      purgeAt: "2026-07-01T12:00:00.000Z",
    });
    expect((await t.call("GET", t.w("/files/search?q=b.txt"))).json.items).toEqual([]);
    expect((await t.call("POST", t.w(`/files/trash/${trash[0].id}/restore`))).status).toBe(200);
    expect(await names("p/shots/sub")).toEqual(["b.txt"]);
    expect((await t.call("GET", t.w("/files/versions?path=p/shots/sub/b.txt"))).json).toHaveLength(
      1,
    );
    expect((await t.call("GET", t.w("/files/trash"))).json).toEqual([]);
  });

  it('restores beside a taken path as "name (restored)" and recreates missing parents', async () => {
    await write("docs/report.pdf", "old");
    await t.call("DELETE", t.w("/files"), { body: { paths: ["docs/report.pdf"] } });
    await write("docs/report.pdf", "new");
    const [item] = (await t.call("GET", t.w("/files/trash"))).json;
    await t.call("POST", t.w(`/files/trash/${item.id}/restore`));
    expect(await names("docs")).toEqual(["report (restored).pdf", "report.pdf"]);

    await write("gone/inner/x.txt");
    await t.call("DELETE", t.w("/files"), { body: { paths: ["gone/inner/x.txt"] } });
    await t.call("DELETE", t.w("/files"), { body: { paths: ["gone"], permanent: true } });
    const [x] = (await t.call("GET", t.w("/files/trash"))).json;
    await t.call("POST", t.w(`/files/trash/${x.id}/restore`));
    expect(await names("gone/inner")).toEqual(["x.txt"]);
  });

  it("restores a folder named outside the BMP beside a taken path with its descendants", async () => {
    await write("🎥 clips/a.txt");
    await write("🎥 clips/🎞/b.txt");
    await t.call("DELETE", t.w("/files"), { body: { paths: ["🎥 clips"] } });
    await t.call("POST", t.w("/files/folder"), { body: { path: "🎥 clips" } });
    const [item] = (await t.call("GET", t.w("/files/trash"))).json;
    expect((await t.call("POST", t.w(`/files/trash/${item.id}/restore`))).status).toBe(200);
    expect(await names()).toEqual(["🎥 clips", "🎥 clips (restored)"]);
    expect((await list("🎥 clips (restored)")).items.map((i: { path: string }) => i.path)).toEqual([
      "🎥 clips (restored)/🎞",
      "🎥 clips (restored)/a.txt",
    ]);
    expect((await list("🎥 clips (restored)/🎞")).items[0].path).toBe("🎥 clips (restored)/🎞/b.txt");
  });

  it("restores a folder's dotted name whole and keeps restored names within 255 characters", async () => {
    expect(restoredName("Shots.v2", false, 1)).toBe("Shots.v2 (restored)");
    expect(restoredName("report.pdf", true, 2)).toBe("report (restored 2).pdf");
    expect(restoredName(".env", true, 1)).toBe(".env (restored)");
    const long = restoredName(`${"a".repeat(251)}.pdf`, true, 1);
    expect(long).toBe(`${"a".repeat(240)} (restored).pdf`);
    // Shortened by whole characters: never half of a surrogate pair.
    expect(restoredName(`${"🎬".repeat(125)}.txt`, true, 1)).toBe(
      `${"🎬".repeat(120)} (restored).txt`,
    );
    expect(restoredName(`a.${"x".repeat(250)}`, true, 1)).toBe(`a.${"x".repeat(242)} (restored)`);

    const longName = `${"a".repeat(251)}.txt`;
    for (const p of ["Shots.v2/a.txt", longName]) {
      await write(p);
      await t.call("DELETE", t.w("/files"), { body: { paths: [p.split("/")[0]] } });
      await write(p);
    }
    for (const item of (await t.call("GET", t.w("/files/trash"))).json) {
      expect((await t.call("POST", t.w(`/files/trash/${item.id}/restore`))).status).toBe(200);
    }
    expect(await names()).toEqual([
      "Shots.v2",
      "Shots.v2 (restored)",
      `${"a".repeat(240)} (restored).txt`,
      longName,
    ]);
    expect(await names("Shots.v2 (restored)")).toEqual(["a.txt"]);
  });

  it("refuses a restore with validation_failed when a file stands where a parent folder must be", async () => {
    await write("a/b/c.txt");
    await t.call("DELETE", t.w("/files"), { body: { paths: ["a/b/c.txt"] } });
    await t.call("DELETE", t.w("/files"), { body: { paths: ["a/b"], permanent: true } });
    await write("a/b", "a file now");
    const [item] = (await t.call("GET", t.w("/files/trash"))).json;
    const res = await t.call("POST", t.w(`/files/trash/${item.id}/restore`));
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
    expect(res.json.error.message).toContain('"a/b"');
    expect((await t.call("GET", t.w("/files/trash"))).json).toHaveLength(1);
    expect(await names("a")).toEqual(["b"]);
  });

  it("answers 404 for an unknown trash item", async () => {
    expect((await t.call("POST", t.w("/files/trash/nope/restore"))).status).toBe(404);
    expect(
      (await t.call("DELETE", t.w("/files/trash/01aaaaaaaaaaaaaaaaaaaaaaaa"))).json.error.code,
    ).toBe("not_found");
  });

  it("purges expired items with the recurring job and removes bytes nobody references", async () => {
    await write("keep.txt", "shared");
    await write("old/copy.txt", "shared");
    await write("old/unique.txt", "only here");
    await write("old/unique.txt", "only here v2");
    await t.call("DELETE", t.w("/files"), { body: { paths: ["old"] } });
    const uniquePath = t.deps.files.blobs.pathOf(
      (await t.deps.files.writeFile(t.workspaceId, "probe.txt", "only here")).sha256!,
    );
    await t.call("DELETE", t.w("/files"), { body: { paths: ["probe.txt"], permanent: true } });
    expect(blobCount()).toBe(3);

    clock.advance(29 * DAY);
    await t.deps.jobs.runDue();
    expect((await t.call("GET", t.w("/files/trash"))).json).toHaveLength(1);
    clock.advance(DAY + 1);
    await t.deps.jobs.runDue();
    expect((await t.call("GET", t.w("/files/trash"))).json).toEqual([]);
    expect(blobCount()).toBe(1);
    expect(fs.existsSync(uniquePath)).toBe(false);
    expect((await list()).items.map((i: { name: string }) => i.name)).toEqual(["keep.txt"]);
    expect(t.deps.db.prepare("SELECT count(*) FROM entries").pluck().get()).toBe(2);
    expect(t.deps.db.prepare("SELECT count(*) FROM file_versions").pluck().get()).toBe(0);
  });

  it("keeps the hourly purge going when runs fail, with one run queued at a time", async () => {
    const purge = vi.spyOn(t.deps.files, "purgeExpired").mockImplementation(() => {
      throw new Error("disk unavailable");
    });
    const queued = () =>
      t.deps.db
        .prepare("SELECT unique_key FROM jobs WHERE kind = 'files.purge' AND status = 'queued'")
        .pluck()
        .all();
    for (let hour = 0; hour < 3; hour++) {
      await t.deps.jobs.runDue();
      expect(queued()).toEqual([`files.purge:${Math.floor(clock.now() / HOUR) + 1}`]);
      clock.advance(HOUR);
    }
    expect(purge).toHaveBeenCalledTimes(3);
    purge.mockRestore();
    await write("old.txt");
    await t.call("DELETE", t.w("/files"), { body: { paths: ["old.txt"] } });
    clock.advance(30 * DAY);
    await t.deps.jobs.runDue();
    expect((await t.call("GET", t.w("/files/trash"))).json).toEqual([]);
  });

  it("purges one item now, and permanent delete skips the trash", async () => {
    await write("a.txt", "A");
    await write("b.txt", "B");
    await t.call("DELETE", t.w("/files"), { body: { paths: ["a.txt"] } });
    const [item] = (await t.call("GET", t.w("/files/trash"))).json;
    expect((await t.call("DELETE", t.w(`/files/trash/${item.id}`))).status).toBe(200);
    await t.call("DELETE", t.w("/files"), { body: { paths: ["b.txt"], permanent: true } });
    expect((await t.call("GET", t.w("/files/trash"))).json).toEqual([]);
    expect((await list()).total).toBe(0);
    expect(t.deps.db.prepare("SELECT sum(ref_count) FROM blobs").pluck().get()).toBe(0);
  });
});

describe("versions", () => {
  it("keeps the replaced content as a version and restores one, keeping the replaced content", async () => {
    clock.set(Date.parse("2026-06-01T10:00:00Z"));
    await write("doc.txt", "v1");
    clock.set(Date.parse("2026-06-01T11:00:00Z"));
    await write("doc.txt", "v2");
    await write("doc.txt", "v2");
    clock.set(Date.parse("2026-06-01T12:00:00Z"));
    await write("doc.txt", "v3");
    const versions = (await t.call("GET", t.w("/files/versions?path=doc.txt"))).json;
    expect(versions.map((v: { createdAt: string }) => v.createdAt)).toEqual([
      "2026-06-01T11:00:00.000Z",
      "2026-06-01T10:00:00.000Z",
    ]);
    expect(versions[0]).toMatchObject({ path: "doc.txt", sizeBytes: 2 });
    expect(versions[0].id).toMatch(/^[a-z0-9]{10,40}$/);
    expect((await list()).items[0].versionCount).toBe(2);

    const v1 = versions[1];
    expect((await t.call("POST", t.w(`/files/versions/${v1.id}/restore`))).status).toBe(200);
    const live = (await list()).items[0];
    expect(live.sha256).toBe(v1.sha256);
    const after = (await t.call("GET", t.w("/files/versions?path=doc.txt"))).json;
    expect(after).toHaveLength(2);
    expect(after.map((v: { id: string }) => v.id)).not.toContain(v1.id);
    expect(after[0].createdAt).toBe("2026-06-01T12:00:00.000Z");
    expect((await t.call("POST", t.w(`/files/versions/${v1.id}/restore`))).status).toBe(404);
  });

  it("keeps at most versionsKeep versions and frees the bytes of dropped ones", async () => {
    await t.close();
    t = await createTestApp({ clock, config: { versionsKeep: 2 } });
    for (const n of [1, 2, 3, 4, 5]) {
      clock.advance(1000);
      await write("f.txt", `v${n}`);
    }
    const versions = (await t.call("GET", t.w("/files/versions?path=f.txt"))).json;
    expect(versions.map((v: { sizeBytes: number }) => v.sizeBytes)).toEqual([2, 2]);
    expect((await list()).items[0].versionCount).toBe(2);
    await t.deps.jobs.runDue();
    expect(blobCount()).toBe(3);
  });

  it("answers 404 for unknown paths and versions, validation_failed for a folder", async () => {
    await t.call("POST", t.w("/files/folder"), { body: { path: "dir" } });
    expect((await t.call("GET", t.w("/files/versions?path=nope"))).status).toBe(404);
    expect((await t.call("GET", t.w("/files/versions?path=dir"))).json.error.code).toBe(
      "validation_failed",
    );
    expect((await t.call("POST", t.w("/files/versions/zzzzzzzzzzzz/restore"))).status).toBe(404);
  });
});

describe("search", () => {
  beforeEach(async () => {
    for (const p of [
      "shots/plate.exr",
      "shots/Plate",
      "shots/plate_v2.exr",
      "shots/old_plate.exr",
      "other/plate.exr",
      "shots/unrelated.txt",
    ]) {
      await write(p);
    }
  });

  it("ranks exact, then prefix, then substring, case-insensitively, with each result's folder", async () => {
    const res = await t.call("GET", t.w("/files/search?q=PLATE&path=shots"));
    expect(res.status).toBe(200);
    expect(res.json.items.map((i: { path: string; match: string }) => [i.path, i.match])).toEqual([
      ["shots/Plate", "exact"],
      ["shots/plate.exr", "prefix"],
      ["shots/plate_v2.exr", "prefix"],
      ["shots/old_plate.exr", "substring"],
    ]);
    expect(res.json.items[0].folder).toBe("shots");
    const all = (await t.call("GET", t.w("/files/search?q=plate.exr"))).json.items;
    expect(all.map((i: { path: string }) => i.path)).toEqual([
      "other/plate.exr",
      "shots/plate.exr",
      "shots/old_plate.exr",
    ]);
  });

  it("honours the limit and handles one- and two-character text", async () => {
    expect((await t.call("GET", t.w("/files/search?q=plate&limit=2"))).json.items).toHaveLength(2);
    const short = (await t.call("GET", t.w("/files/search?q=v2&path=shots"))).json.items;
    expect(short.map((i: { name: string }) => i.name)).toEqual(["plate_v2.exr"]);
    const one = (await t.call("GET", t.w("/files/search?q=o"))).json.items;
    expect(one[0]).toMatchObject({ name: "old_plate.exr", match: "prefix" });
    expect(one.map((i: { name: string }) => i.name)).toContain("other");
  });

  it("treats FTS syntax in the text as plain characters", async () => {
    await write('weird "name" AND (x).txt');
    const res = await t.call("GET", t.w(`/files/search?q=${encodeURIComponent('"name" AND')}`));
    expect(res.json.items.map((i: { name: string }) => i.name)).toEqual([
      'weird "name" AND (x).txt',
    ]);
    expect((await t.call("GET", t.w("/files/search?q=%25"))).status).toBe(200);
  });

  it("counts characters, not UTF-16 units, when choosing how to match", async () => {
    await write("shots/x🎬ab.txt");
    // Three UTF-16 units but two characters: too short for a trigram, so the scope is walked.
    const res = await t.call("GET", t.w(`/files/search?q=${encodeURIComponent("🎬a")}`));
    expect(res.json.items.map((i: { path: string }) => i.path)).toEqual(["shots/x🎬ab.txt"]);
  });

  it("never returns trashed entries, in any tier or scope", async () => {
    await write("shots/bin/plate.exr");
    await write("shots/bin/pl");
    const trashed = ["shots/plate.exr", "shots/old_plate.exr", "shots/bin"];
    const queries = ["plate.exr", "plate", "ate", "pl", "l", "bin"];
    const found = async () => {
      const paths = new Set<string>();
      for (const q of queries) {
        for (const scope of ["", "shots"]) {
          const res = await t.call("GET", t.w(`/files/search?q=${q}&path=${scope}`));
          for (const item of res.json.items) paths.add(item.path);
        }
      }
      return [...paths].filter((p) => trashed.some((x) => p === x || p.startsWith(`${x}/`)));
    };
    expect((await found()).sort()).toEqual([
      "shots/bin",
      "shots/bin/pl",
      "shots/bin/plate.exr",
      "shots/old_plate.exr",
      "shots/plate.exr",
    ]);
    await t.call("DELETE", t.w("/files"), { body: { paths: trashed } });
    expect(await found()).toEqual([]);
  });

  it("answers 404 for an unknown scope", async () => {
    expect((await t.call("GET", t.w("/files/search?q=x&path=nope"))).status).toBe(404);
  });
});

describe("manifest", () => {
  it("lists every file below a folder, relative to it, in path order", async () => {
    await write("job/b.txt", "bb");
    await write("job/a/z.txt", "z");
    await write("job/a/y.txt", "yyy");
    await write("elsewhere.txt");
    const res = await t.call("GET", t.w("/files/manifest?path=job"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.json).toMatchObject({ root: "job", truncated: false, fileCount: 3, totalBytes: 6 });
    expect(res.json.files.map((f: { path: string; size: number }) => [f.path, f.size])).toEqual([
      ["a/y.txt", 3],
      ["a/z.txt", 1],
      ["b.txt", 2],
    ]);
    expect(res.json.files[0].modifiedAt).toBe("2026-06-01T12:00:00.000Z");
    expect((await t.call("GET", t.w("/files/manifest"))).json.fileCount).toBe(4);
  });

  it("says truncated past the limit", async () => {
    for (let i = 0; i < 6; i++) await write(`m/${i}.txt`);
    t.deps.files.limits.manifest = 5;
    const res = (await t.call("GET", t.w("/files/manifest?path=m"))).json;
    expect(res).toMatchObject({ truncated: true, fileCount: 5, limit: 5 });
    t.deps.files.limits.manifest = 6;
    expect((await t.call("GET", t.w("/files/manifest?path=m"))).json.truncated).toBe(false);
  });

  it("answers 404 for an unknown folder and validation_failed for a file", async () => {
    await write("f.txt");
    expect((await t.call("GET", t.w("/files/manifest?path=nope"))).status).toBe(404);
    expect((await t.call("GET", t.w("/files/manifest?path=f.txt"))).json.error.code).toBe(
      "validation_failed",
    );
  });
});

describe("content storage", () => {
  it("stores bytes once per content, under their SHA-256", async () => {
    const a = await write("a.bin", "same bytes");
    const b = await write("b/c.bin", "same bytes");
    expect(a.sha256).toBe(b.sha256);
    expect(blobCount()).toBe(1);
    expect(fs.readFileSync(t.deps.files.blobs.pathOf(a.sha256!), "utf8")).toBe("same bytes");
    expect(fs.readdirSync(`${t.deps.files.blobs.root}/tmp`)).toEqual([]);
  });

  it("refuses to write a file where a folder is", async () => {
    await t.call("POST", t.w("/files/folder"), { body: { path: "dir" } });
    await expect(write("dir", "x")).rejects.toThrow(/is a folder/);
    expect(fs.readdirSync(`${t.deps.files.blobs.root}/tmp`)).toEqual([]);
  });
});

describe("preview", () => {
  it("renders a JPEG thumbnail of an image and refuses other files", async () => {
    const sharp = (await import("sharp")).default;
    const png = await sharp({
      create: { width: 800, height: 400, channels: 3, background: "#336699" },
    })
      .png()
      .toBuffer();
    await write("img.png", png);
    await write("doc.txt");
    const res = await t.app.request(t.w("/files/preview?path=img.png"), {
      headers: { Authorization: `Bearer ${t.adminKey}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([320, 160]);
    expect((await t.call("GET", t.w("/files/preview?path=doc.txt"))).json.error.code).toBe(
      "validation_failed",
    );
  });
});

describe("demo content", () => {
  const fresh = async (env: NodeJS.ProcessEnv) => {
    await t.close();
    t = await createTestApp({ clock, config: { demoContent: loadConfig(env).demoContent } });
    await t.deps.jobs.runDue();
  };

  it("leaves a new workspace empty with DEMO_CONTENT=0", async () => {
    await fresh({ DEMO_CONTENT: "0" });
    expect((await list()).total).toBe(0);
    expect((await t.call("GET", t.w("/files/trash"))).json).toEqual([]);
  });

  it("fills a new workspace by default", async () => {
    await fresh({});
    expect(await names()).toEqual(["Deliveries", "Projects"]);
    expect(await names("Projects/Northlight Feature")).toEqual(
      expect.arrayContaining(["Documents", "Plates", "README.txt"]),
    );
    expect(await names("Deliveries")).toEqual(["Vendor handover"]);
    expect((await t.call("GET", t.w("/files/trash"))).json).toHaveLength(2);
  });
});

describe("openapi", () => {
  it("documents every files operation with its scopes", async () => {
    const doc = (await t.call("GET", "/v1/openapi.json", { key: null })).json;
    const files = Object.entries(doc.paths).filter(([p]) => p.includes("/files"));
    expect(files.length).toBeGreaterThanOrEqual(8);
    expect(doc.paths["/workspaces/{workspaceId}/files"].delete["x-scopes"]).toEqual([
      "files:write",
    ]);
    expect(doc.paths["/workspaces/{workspaceId}/files/search"].get.description).toContain("exact");
  });
});
