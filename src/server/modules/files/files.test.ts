import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/env";
import { ManualClock } from "@/server/lib/clock";
import { diskBlobs } from "@/server/testing/disk-blobs";
import { okBody, refusal } from "@/server/testing/expect-body";
import {
  filesClient,
  folderNames,
  listFolder,
  listTrash,
  writeFile,
} from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { insert, sortKey } from "./files.repository";

let t: TestApp;
let clock: ManualClock;
let files: ReturnType<typeof filesClient>;

async function start(config: Parameters<typeof createTestApp>[0] = {}) {
  t = await createTestApp({ clock, ...config });
  files = filesClient(t);
}
beforeEach(async () => {
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  await start();
});
afterEach(() => t.close());

const write = (p: string, content?: string | Buffer) => writeFile(t, p, content);
const list = (p = "", query: Parameters<typeof listFolder>[2] = {}) => listFolder(t, p, query);
const names = (p = "", query: Parameters<typeof listFolder>[2] = {}) => folderNames(t, p, query);
const createFolder = (p: string) => files.folder.$post({ param: t.ws, json: { path: p } });
const rename = (p: string, newName: string) =>
  files.$patch({ param: t.ws, json: { path: p, newName } });
const remove = (paths: string[], permanent?: boolean) =>
  files.$delete({ param: t.ws, json: { paths, permanent } });
const blobCount = () => t.deps.db.prepare("SELECT count(*) FROM blobs").pluck().get();

describe("listing", () => {
  it("lists folders first, then files, in natural case-insensitive name order, with an exact total", async () => {
    for (const n of ["b.txt", "a10.txt", "A2.txt", "Zeta"]) await write(n);
    await createFolder("zoo");
    await createFolder("Alpha");
    const res = await list();
    expect(res).toMatchObject({ path: "", access: "write", total: 6 });
    expect(res.items.map((i) => i.name)).toEqual([
      "Alpha",
      "zoo",
      "A2.txt",
      "a10.txt",
      "b.txt",
      "Zeta",
    ]);
    const file = res.items[2]!;
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
    const root = t.deps.files.ensureFolder(t.workspaceId, "big", clock.now());
    t.deps.db.transaction(() => {
      for (let i = 0; i < 5000; i++)
        insert(
          t.deps.db,
          root,
          `f${String(i).padStart(5, "0")}.dat`,
          { size: i, mime: "x/y", sha256: "0".repeat(64) },
          clock.now(),
        );
      for (let i = 0; i < 3; i++) insert(t.deps.db, root, `dir${i}`, null, clock.now());
    })();
    const first = await list("big", { count: "5" });
    expect(first.total).toBe(5003);
    expect(first.items.map((i) => i.name)).toEqual([
      "dir0",
      "dir1",
      "dir2",
      "f00000.dat",
      "f00001.dat",
    ]);
    for (const skip of [2, 2047, 2048, 3000, 4999, 5001]) {
      const page = await list("big", { skip: String(skip), count: "3" });
      const expected = [skip, skip + 1, skip + 2]
        .filter((n) => n < 5003)
        .map((n) => (n < 3 ? `dir${n}` : `f${String(n - 3).padStart(5, "0")}.dat`));
      expect(page.items.map((i) => i.name)).toEqual(expected);
    }
    expect((await list("big", { skip: "6000" })).items).toEqual([]);
    // The position cache follows changes: one more entry early in the order shifts deep pages.
    await write("big/a-first.dat");
    expect((await list("big", { skip: "3003", count: "1" })).items[0]!.name).toBe("f02999.dat");
    const bySize = await list("big", { skip: "3003", count: "1", sort: "size", order: "desc" });
    expect(bySize.items[0]!.name).toBe("f01999.dat");
  });

  it("never serves a stale page: counts, versions and renamed paths show at once", async () => {
    await write("p/sub/a.txt", "1");
    const before = (await list("p")).items[0];
    expect(before).toMatchObject({ path: "p/sub", childCount: 1 });
    await write("p/sub/b.txt");
    expect((await list("p")).items[0]!.childCount).toBe(2);
    await write("p/sub/a.txt", "2");
    expect((await list("p/sub")).items[0]!.versionCount).toBe(1);
    await rename("p", "q");
    expect((await list("q/sub")).items.map((i) => i.path)).toEqual(["q/sub/a.txt", "q/sub/b.txt"]);
    await remove(["q/sub/b.txt"]);
    expect((await list("q")).items[0]!.childCount).toBe(1);
  });

  it("never serves the pages of a deleted folder to one recreated at its path under the same id", async () => {
    for (const how of ["permanent", "purge"]) {
      await write("X/a.txt");
      expect(await names("X")).toEqual(["a.txt"]);
      const old = t.deps.files.get(t.workspaceId, "X");
      if (how === "permanent") {
        await remove(["X"], true);
      } else {
        await remove(["X"]);
        const [item] = await listTrash(t);
        await files.trash[":itemId"].$delete({ param: { ...t.ws, itemId: item!.id } });
      }
      await write("X/b.txt");
      // SQLite hands the freed highest id to the new folder: the case the cache must survive.
      expect(t.deps.files.get(t.workspaceId, "X").id).toBe(old.id);
      expect(await names("X")).toEqual(["b.txt"]);
      await remove(["X"], true);
    }
  });

  it("sorts by size or modified date as an extension, folders still first", async () => {
    await write("small.txt", "x");
    clock.advance(1000);
    await write("large.txt", "x".repeat(100));
    clock.advance(1000);
    await write("mid.txt", "x".repeat(10));
    await createFolder("dir");
    expect(await names("", { sort: "size" })).toEqual(["dir", "small.txt", "mid.txt", "large.txt"]);
    expect(await names("", { sort: "size", order: "desc" })).toEqual([
      "dir",
      "large.txt",
      "mid.txt",
      "small.txt",
    ]);
    expect(await names("", { sort: "modified", order: "desc" })).toEqual([
      "dir",
      "mid.txt",
      "large.txt",
      "small.txt",
    ]);
    // The listing says which order it is in, so a console can tell a service that ignored sort.
    const listing = await list("", { sort: "size", order: "desc" });
    expect([listing.sort, listing.order]).toEqual(["size", "desc"]);
    expect(await list()).toMatchObject({ sort: "name", order: "asc" });
  });

  it("answers 404 for an unknown folder and validation_failed for a file", async () => {
    await write("a.txt");
    expect(await refusal(await files.$get({ param: t.ws, query: { path: "nope" } }))).toMatchObject(
      { status: 404, code: "not_found" },
    );
    expect(
      await refusal(await files.$get({ param: t.ws, query: { path: "a.txt" } })),
    ).toMatchObject({ status: 400, code: "validation_failed" });
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
    const query = { path: bad };
    const calls = [
      files.$get({ param: t.ws, query }),
      files.search.$get({ param: t.ws, query: { q: "x", path: bad } }),
      files.manifest.$get({ param: t.ws, query }),
      files.versions.$get({ param: t.ws, query }),
      files.preview.$get({ param: t.ws, query }),
      createFolder(bad),
      rename(bad, "x"),
      remove(["ok", bad]),
    ];
    for (const res of await Promise.all(calls)) {
      expect(await refusal(res)).toMatchObject({ status: 400, code: "path_rejected" });
    }
  });

  it.each([["a/b"], ["x".repeat(256)], [""], [".."], ["a\u0080b"], ["a\u007f"]])(
    "refuses the new name %j with validation_failed",
    async (newName) => {
      await write("a.txt");
      expect(await refusal(await rename("a.txt", newName))).toMatchObject({
        status: 400,
        code: "validation_failed",
      });
    },
  );

  it("cannot rename or delete the root", async () => {
    for (const res of [await rename("", "x"), await remove([""])]) {
      expect(await refusal(res)).toMatchObject({ status: 400, code: "validation_failed" });
    }
  });

  it("bounds delete to 500 paths, search text to 200 characters and a page to 1000 entries", async () => {
    const many = Array.from({ length: 501 }, (_, i) => `f${i}`);
    for (const res of [
      await remove(many),
      await files.search.$get({ param: t.ws, query: { q: "a".repeat(201) } }),
      await files.$get({ param: t.ws, query: { count: "1001" } }),
    ]) {
      expect(await refusal(res)).toMatchObject({ status: 400, code: "validation_failed" });
    }
  });

  it("needs files:write to change anything; files:read may only read", async () => {
    const reader = filesClient(t, t.keyWith(["files:read"]));
    expect((await okBody(await reader.$get({ param: t.ws, query: {} }))).access).toBe("read");
    const item = { ...t.ws, itemId: "abc" };
    for (const res of [
      await reader.folder.$post({ param: t.ws, json: { path: "x" } }),
      await reader.$patch({ param: t.ws, json: { path: "x", newName: "y" } }),
      await reader.$delete({ param: t.ws, json: { paths: ["x"] } }),
      await reader.trash[":itemId"].restore.$post({ param: item }),
      await reader.trash[":itemId"].$delete({ param: item }),
      await reader.versions[":versionId"].restore.$post({ param: { ...t.ws, versionId: "abc" } }),
    ]) {
      const refused = await refusal(res);
      expect(refused.status).toBe(403);
      expect(refused.details.requiredScopes).toEqual(["files:write"]);
    }
    const writer = filesClient(t, t.keyWith(["files:write"]));
    expect((await writer.$get({ param: t.ws, query: {} })).status).toBe(403);
  });
});

describe("create folder", () => {
  it("creates missing parents, answers 201 for an existing folder, refuses a file in the way", async () => {
    const res = await createFolder("a/b/c");
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true });
    expect(await names("a/b")).toEqual(["c"]);
    expect((await createFolder("a/b")).status).toBe(201);
    await write("a/file.txt");
    for (const p of ["a/file.txt", "a/file.txt/sub"]) {
      const bad = await refusal(await createFolder(p));
      expect(bad).toMatchObject({ status: 400, code: "validation_failed" });
      expect(bad.message).toContain("a/file.txt");
    }
  });
});

describe("rename", () => {
  it("renames a folder with its subtree and refuses a conflict naming it", async () => {
    await write("a/x/deep.txt");
    await write("b.txt");
    expect((await rename("a", "renamed")).status).toBe(200);
    expect(await names("renamed/x")).toEqual(["deep.txt"]);
    expect((await list("renamed/x")).items[0]!.path).toBe("renamed/x/deep.txt");
    expect((await files.$get({ param: t.ws, query: { path: "a" } })).status).toBe(404);
    const conflict = await refusal(await rename("b.txt", "renamed"));
    expect(conflict).toMatchObject({ status: 400, code: "validation_failed" });
    expect(conflict.details.issues[0]).toMatchObject({ field: "newName", code: "conflict" });
    expect(conflict.message).toContain('"renamed"');
    expect((await rename("b.txt", "b.txt")).status).toBe(200);
    expect((await rename("nope", "x")).status).toBe(404);
  });

  it("renames a folder named outside the BMP without cutting its descendants' paths", async () => {
    await write("🎬/c.txt");
    await write("🎬/🎞 sub/d.txt");
    await write("🎬x.txt");
    await rename("🎬/🎞 sub", "sub");
    expect((await list("🎬/sub")).items[0]!.path).toBe("🎬/sub/d.txt");
    await rename("🎬", "R");
    expect((await list("R")).items.map((i) => i.path)).toEqual(["R/sub", "R/c.txt"]);
    expect((await list("R/sub")).items[0]!.path).toBe("R/sub/d.txt");
    expect(await names()).toEqual(["R", "🎬x.txt"]);
    await rename("R", "🎬🎬");
    const manifest = await okBody(await files.manifest.$get({ param: t.ws, query: {} }));
    expect(manifest.files.map((f) => f.path)).toEqual(["🎬x.txt", "🎬🎬/c.txt", "🎬🎬/sub/d.txt"]);
  });
});

describe("content storage", () => {
  it("stores bytes once per content, under their SHA-256", async () => {
    const a = await write("a.bin", "same bytes");
    const b = await write("b/c.bin", "same bytes");
    expect(a.sha256).toBe(b.sha256);
    expect(blobCount()).toBe(1);
    expect(fs.readFileSync(diskBlobs(t.deps.files).pathOf(a.sha256!), "utf8")).toBe("same bytes");
    expect(fs.readdirSync(`${diskBlobs(t.deps.files).root}/tmp`)).toEqual([]);
  });

  it("keeps stored bytes to the service's own user: files 0600, folders 0700", async () => {
    const { sha256 } = await write("secret.txt", "for our eyes only");
    const blob = diskBlobs(t.deps.files).pathOf(sha256!);
    const mode = (p: string) => fs.statSync(p).mode & 0o777;
    expect(mode(blob)).toBe(0o600);
    for (const dir of [
      path.dirname(blob),
      path.dirname(path.dirname(blob)),
      diskBlobs(t.deps.files).root,
      path.join(diskBlobs(t.deps.files).root, "tmp"),
    ]) {
      expect([dir, mode(dir)]).toEqual([dir, 0o700]);
    }
  });

  it("refuses to write a file where a folder is", async () => {
    await createFolder("dir");
    await expect(write("dir", "x")).rejects.toThrow(/is a folder/);
    expect(fs.readdirSync(`${diskBlobs(t.deps.files).root}/tmp`)).toEqual([]);
  });

  it("leaves nothing behind when the bytes cannot be put in place", async () => {
    const sha = createHash("sha256").update("doomed").digest("hex");
    // A file where the blob's folder must go: the last step of the write fails.
    fs.writeFileSync(path.join(diskBlobs(t.deps.files).root, sha.slice(0, 2)), "");
    await expect(write("new/doomed.txt", "doomed")).rejects.toThrow();
    expect(await names()).toEqual([]);
    expect(blobCount()).toBe(0);
    expect(fs.readdirSync(`${diskBlobs(t.deps.files).root}/tmp`)).toEqual([]);
  });

  it("takes paths from the service's other callers in NFC, as the API does", async () => {
    const nfc = "Café";
    const nfd = nfc.normalize("NFD");
    expect(nfd).not.toBe(nfc);
    // A name typed on macOS arrives decomposed; the same name typed elsewhere is the same file.
    await write(`${nfd}/menu.txt`, "soup");
    t.deps.files.createFolder(t.workspaceId, `${nfd}/Crème`.normalize("NFD"));
    await write(`${nfc}/menu.txt`, "salad");
    expect(await names()).toEqual([nfc]);
    expect(await names(nfc)).toEqual(["Crème", "menu.txt"]);
    expect((await list(nfc)).items[1]).toMatchObject({ path: `${nfc}/menu.txt`, versionCount: 1 });
    expect((await rename(nfc, "Bistro")).status).toBe(200);
    expect(await names("Bistro")).toEqual(["Crème", "menu.txt"]);
  });

  it("types files by extension, with the media types post-production needs", async () => {
    const expected: Record<string, string> = {
      "plate.0001.EXR": "image/x-exr",
      "scan.dpx": "image/dpx",
      "A001.r3d": "video/x-r3d",
      "A001.braw": "video/x-braw",
      "master.mxf": "application/mxf",
      "prores.mov": "video/quicktime",
      "mix.flac": "audio/flac",
      "cut.edl": "text/plain",
      "notes.docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "frame.png": "image/png",
      README: "application/octet-stream",
      txt: "application/octet-stream",
      ".env": "application/octet-stream",
    };
    for (const name of Object.keys(expected)) await write(name);
    const listed = (await list()).items.map((i) => [i.name, i.mimeType]);
    expect(Object.fromEntries(listed)).toEqual(expected);
    await rename("A001.r3d", "A001.mov");
    expect((await list()).items.find((i) => i.name === "A001.mov")!.mimeType).toBe(
      "video/quicktime",
    );
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
    const res = await files.preview.$get({ param: t.ws, query: { path: "img.png" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([320, 160]);
    const doc = await files.preview.$get({ param: t.ws, query: { path: "doc.txt" } });
    expect(await refusal(doc)).toMatchObject({ status: 400, code: "validation_failed" });
  });
});

describe("demo content", () => {
  const fresh = async (env: NodeJS.ProcessEnv) => {
    await t.close();
    await start({ config: { demoContent: loadConfig(env).demoContent } });
    await t.deps.jobs.runDue();
  };

  it("leaves a new workspace empty with DEMO_CONTENT=0", async () => {
    await fresh({ DEMO_CONTENT: "0" });
    expect((await list()).total).toBe(0);
    expect(await listTrash(t)).toEqual([]);
  });

  it("fills a new workspace by default", async () => {
    await fresh({});
    expect(await names()).toEqual(["Deliveries", "Projects"]);
    expect(await names("Projects/Northlight Feature")).toEqual(
      expect.arrayContaining(["Documents", "Plates", "README.txt"]),
    );
    expect(await names("Deliveries")).toEqual(["Vendor handover"]);
    expect(await listTrash(t)).toHaveLength(2);
  });
});

describe("openapi", () => {
  it("documents every files operation with its scopes", async () => {
    // The description is not a files route, so the typed client has no call for it.
    const doc = (await t.call("GET", "/v1/openapi.json", { key: null })).json;
    const paths = Object.entries(doc.paths).filter(([p]) => p.includes("/files"));
    expect(paths.length).toBeGreaterThanOrEqual(8);
    expect(doc.paths["/workspaces/{workspaceId}/files"].delete["x-scopes"]).toEqual([
      "files:write",
    ]);
    expect(doc.paths["/workspaces/{workspaceId}/files/search"].get.description).toContain("exact");
    const restored =
      doc.paths["/workspaces/{workspaceId}/files/trash/{itemId}/restore"].post.responses["200"];
    expect(JSON.stringify(restored)).toContain("TrashRestoreResult");
  });
});
