import fs from "node:fs";
import { describe, expect, it, vi } from "vitest";
import type { ManualClock } from "@/server/lib/clock";
import { diskBlobs } from "@/server/testing/disk-blobs";
import { okBody, refusal } from "@/server/testing/expect-body";
import {
  filesClient,
  folderNames,
  listFolder,
  listTrash,
  writeFile,
} from "@/server/testing/files-client";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { restoredName } from "./trash.service";

let t: TestApp;
let clock: ManualClock;
let files: ReturnType<typeof filesClient>;
const DAY = 86_400_000;
const HOUR = 3_600_000;

testAppEach((app, c) => {
  t = app;
  clock = c;
  files = filesClient(t);
});

const write = (p: string, content?: string) => writeFile(t, p, content);
const names = (p = "") => folderNames(t, p);
const trash = () => listTrash(t);
const remove = (paths: string[], permanent?: boolean) =>
  files.$delete({ param: t.ws, json: { paths, permanent } });
const restore = (itemId: string) =>
  files.trash[":itemId"].restore.$post({ param: { ...t.ws, itemId } });
const purge = (itemId: string) => files.trash[":itemId"].$delete({ param: { ...t.ws, itemId } });
const count = (sql: string) => t.deps.db.prepare(sql).pluck().get();

describe("delete and trash", () => {
  it("is all or nothing: one unknown path and nothing changes", async () => {
    await write("a.txt");
    await write("b.txt");
    const res = await refusal(await remove(["a.txt", "missing.txt", "b.txt"]));
    expect(res.status).toBe(404);
    expect(res.details).toEqual({ path: "missing.txt" });
    expect(await names()).toEqual(["a.txt", "b.txt"]);
    expect(await trash()).toEqual([]);
  });

  it("trashes a folder as one item with its original path, size and purge date, and restores it", async () => {
    await write("p/shots/a.txt", "aaaa");
    await write("p/shots/sub/b.txt", "bb");
    await write("p/shots/sub/b.txt", "bbb");
    expect((await remove(["p/shots", "p/shots/sub/b.txt"])).status).toBe(200);
    expect((await listFolder(t, "p")).total).toBe(0);
    const items = await trash();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      path: "p/shots",
      name: "shots",
      type: "folder",
      sizeBytes: 7,
      deletedAt: "2026-06-01T12:00:00.000Z",
      purgeAt: "2026-07-01T12:00:00.000Z",
    });
    const search = await okBody(await files.search.$get({ param: t.ws, query: { q: "b.txt" } }));
    expect(search.items).toEqual([]);
    expect(await okBody(await restore(items[0]!.id))).toEqual({
      ok: true,
      path: "p/shots",
      renamed: false,
    });
    expect(await names("p/shots/sub")).toEqual(["b.txt"]);
    const versions = await files.versions.$get({
      param: t.ws,
      query: { path: "p/shots/sub/b.txt" },
    });
    expect(await okBody(versions)).toHaveLength(1);
    expect(await trash()).toEqual([]);
  });

  it('restores beside a taken path as "name (restored)", says so, and recreates missing parents', async () => {
    await write("docs/report.pdf", "old");
    await remove(["docs/report.pdf"]);
    await write("docs/report.pdf", "new");
    const [item] = await trash();
    expect(await okBody(await restore(item!.id))).toEqual({
      ok: true,
      path: "docs/report (restored).pdf",
      renamed: true,
    });
    expect(await names("docs")).toEqual(["report (restored).pdf", "report.pdf"]);

    await write("gone/inner/x.txt");
    await remove(["gone/inner/x.txt"]);
    await remove(["gone"], true);
    const [x] = await trash();
    expect(await okBody(await restore(x!.id))).toEqual({
      ok: true,
      path: "gone/inner/x.txt",
      renamed: false,
    });
    expect(await names("gone/inner")).toEqual(["x.txt"]);
  });

  it("restores a folder named outside the BMP beside a taken path with its descendants", async () => {
    await write("🎥 clips/a.txt");
    await write("🎥 clips/🎞/b.txt");
    await remove(["🎥 clips"]);
    await files.folder.$post({ param: t.ws, json: { path: "🎥 clips" } });
    const [item] = await trash();
    expect(await okBody(await restore(item!.id))).toMatchObject({
      path: "🎥 clips (restored)",
      renamed: true,
    });
    expect(await names()).toEqual(["🎥 clips", "🎥 clips (restored)"]);
    expect((await listFolder(t, "🎥 clips (restored)")).items.map((i) => i.path)).toEqual([
      "🎥 clips (restored)/🎞",
      "🎥 clips (restored)/a.txt",
    ]);
    expect((await listFolder(t, "🎥 clips (restored)/🎞")).items[0]!.path).toBe(
      "🎥 clips (restored)/🎞/b.txt",
    );
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
      await remove([p.split("/")[0]!]);
      await write(p);
    }
    for (const item of await trash()) {
      expect((await restore(item.id)).status).toBe(200);
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
    await remove(["a/b/c.txt"]);
    await remove(["a/b"], true);
    await write("a/b", "a file now");
    const [item] = await trash();
    const res = await refusal(await restore(item!.id));
    expect(res).toMatchObject({ status: 400, code: "validation_failed" });
    expect(res.message).toContain('"a/b"');
    expect(await trash()).toHaveLength(1);
    expect(await names("a")).toEqual(["b"]);
  });

  it("answers 404 for an unknown trash item", async () => {
    expect((await restore("nope")).status).toBe(404);
    expect(await refusal(await purge("01aaaaaaaaaaaaaaaaaaaaaaaa"))).toMatchObject({
      status: 404,
      code: "not_found",
    });
  });

  it("purges expired items with the recurring job and removes bytes nobody references", async () => {
    await write("keep.txt", "shared");
    await write("old/copy.txt", "shared");
    await write("old/unique.txt", "only here");
    await write("old/unique.txt", "only here v2");
    await remove(["old"]);
    const uniquePath = diskBlobs(t.deps.files).pathOf(
      (await write("probe.txt", "only here")).sha256!,
    );
    await remove(["probe.txt"], true);
    expect(count("SELECT count(*) FROM blobs")).toBe(3);

    clock.advance(29 * DAY);
    await t.deps.jobs.runDue();
    expect(await trash()).toHaveLength(1);
    clock.advance(DAY + 1);
    await t.deps.jobs.runDue();
    expect(await trash()).toEqual([]);
    expect(count("SELECT count(*) FROM blobs")).toBe(1);
    expect(fs.existsSync(uniquePath)).toBe(false);
    expect(await names()).toEqual(["keep.txt"]);
    expect(count("SELECT count(*) FROM entries")).toBe(2);
    expect(count("SELECT count(*) FROM file_versions")).toBe(0);
  });

  it("keeps the hourly purge going when runs fail, with one run queued at a time", async () => {
    const failing = vi
      .spyOn(t.deps.upkeepStore, "purgeExpiredTrash")
      .mockRejectedValue(new Error("disk unavailable"));
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
    expect(failing).toHaveBeenCalledTimes(3);
    failing.mockRestore();
    await write("old.txt");
    await remove(["old.txt"]);
    clock.advance(30 * DAY);
    await t.deps.jobs.runDue();
    expect(await trash()).toEqual([]);
  });

  it("purges one item now, and permanent delete skips the trash", async () => {
    await write("a.txt", "A");
    await write("b.txt", "B");
    await remove(["a.txt"]);
    const [item] = await trash();
    expect((await purge(item!.id)).status).toBe(200);
    await remove(["b.txt"], true);
    expect(await trash()).toEqual([]);
    expect((await listFolder(t)).total).toBe(0);
    expect(count("SELECT sum(ref_count) FROM blobs")).toBe(0);
  });
});
