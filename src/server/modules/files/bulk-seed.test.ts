import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { filesClient, listFolder, writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { seedEntries } from "./bulk-seed";

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

describe("bulk seed", () => {
  it("adds entries in batches that keep the folder's counts and the blob's references exact", async () => {
    await writeFile(t, "Seq/readme.txt", "hello");
    await seedEntries(t.deps.files, t.workspaceId, "Seq", 4_500, { pauseMs: 0 });
    expect((await listFolder(t, "Seq", { count: "1" })).total).toBe(4_501);
    // One in fifty is a folder; numbering continues after the entry already there.
    const first = await listFolder(t, "Seq", { count: "200" });
    expect(first.items.filter((i) => i.type === "folder")).toHaveLength(90);
    expect(first.items[0]!.name).toBe("dir_0000049");
    const last = await listFolder(t, "Seq", { skip: "4500", count: "1" });
    expect(last.items[0]!.name).toBe("readme.txt");
    const parent = await listFolder(t);
    expect(parent.items.find((i) => i.name === "Seq")!.childCount).toBe(4_501);
    const refs = t.deps.db
      .prepare("SELECT ref_count FROM blobs WHERE size = ?")
      .pluck()
      .get(Buffer.byteLength("Consign seed file: every seeded file shares these bytes.\n"));
    expect(refs).toBe(4_410);
  });

  it("lets other writers in between its batches", async () => {
    const files = filesClient(t);
    const seeded = () =>
      t.deps.db.prepare("SELECT count(*) FROM entries WHERE name LIKE 'plate_%'").pluck().get();
    const seen: number[] = [];
    let done = false;
    const seed = seedEntries(t.deps.files, t.workspaceId, "Seq", 6_000, { pauseMs: 20 }).finally(
      () => {
        done = true;
      },
    );
    while (!done) {
      const res = await files.folder.$post({ param: t.ws, json: { path: `Other/${seen.length}` } });
      expect(res.status).toBe(201);
      seen.push(seeded() as number);
      await sleep(2);
    }
    await seed;
    expect(seen.some((n) => n > 0 && n < 5_880)).toBe(true);
  });
});
