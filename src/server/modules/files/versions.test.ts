import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/server/lib/clock";
import { okBody, refusal } from "@/server/testing/expect-body";
import { filesClient, listFolder, writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

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

const write = (p: string, content: string) => writeFile(t, p, content);
const versionsOf = (path: string) => files.versions.$get({ param: t.ws, query: { path } });
const restore = (versionId: string) =>
  files.versions[":versionId"].restore.$post({ param: { ...t.ws, versionId } });

describe("versions", () => {
  it("keeps the replaced content as a version and restores one, keeping the replaced content", async () => {
    clock.set(Date.parse("2026-06-01T10:00:00Z"));
    await write("doc.txt", "v1");
    clock.set(Date.parse("2026-06-01T11:00:00Z"));
    await write("doc.txt", "v2");
    await write("doc.txt", "v2");
    clock.set(Date.parse("2026-06-01T12:00:00Z"));
    await write("doc.txt", "v3");
    const versions = await okBody(await versionsOf("doc.txt"));
    expect(versions.map((v) => v.createdAt)).toEqual([
      "2026-06-01T11:00:00.000Z",
      "2026-06-01T10:00:00.000Z",
    ]);
    expect(versions[0]).toMatchObject({ path: "doc.txt", sizeBytes: 2 });
    expect(versions[0]!.id).toMatch(/^[a-z0-9]{10,40}$/);
    expect((await listFolder(t)).items[0]!.versionCount).toBe(2);

    const v1 = versions[1]!;
    expect(await okBody(await restore(v1.id))).toEqual({ ok: true });
    expect((await listFolder(t)).items[0]!.sha256).toBe(v1.sha256);
    const after = await okBody(await versionsOf("doc.txt"));
    expect(after).toHaveLength(2);
    expect(after.map((v) => v.id)).not.toContain(v1.id);
    expect(after[0]!.createdAt).toBe("2026-06-01T12:00:00.000Z");
    expect((await restore(v1.id)).status).toBe(404);
  });

  it("keeps at most versionsKeep versions and frees the bytes of dropped ones", async () => {
    await t.close();
    await start({ config: { versionsKeep: 2 } });
    for (const n of [1, 2, 3, 4, 5]) {
      clock.advance(1000);
      await write("f.txt", `v${n}`);
    }
    const versions = await okBody(await versionsOf("f.txt"));
    expect(versions.map((v) => v.sizeBytes)).toEqual([2, 2]);
    expect((await listFolder(t)).items[0]!.versionCount).toBe(2);
    await t.deps.jobs.runDue();
    expect(t.deps.db.prepare("SELECT count(*) FROM blobs").pluck().get()).toBe(3);
  });

  it("answers 404 for unknown paths and versions, validation_failed for a folder", async () => {
    await files.folder.$post({ param: t.ws, json: { path: "dir" } });
    expect((await versionsOf("nope")).status).toBe(404);
    expect(await refusal(await versionsOf("dir"))).toMatchObject({
      status: 400,
      code: "validation_failed",
    });
    expect((await restore("zzzzzzzzzzzz")).status).toBe(404);
  });
});
