import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/server/lib/clock";
import { okBody, refusal } from "@/server/testing/expect-body";
import { filesClient, writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

let t: TestApp;
let files: ReturnType<typeof filesClient>;

beforeEach(async () => {
  t = await createTestApp({ clock: new ManualClock(Date.parse("2026-06-01T12:00:00Z")) });
  files = filesClient(t);
});
afterEach(() => t.close());

const manifest = (path?: string) => files.manifest.$get({ param: t.ws, query: { path } });

describe("manifest", () => {
  it("lists every file below a folder, relative to it, in path order", async () => {
    await writeFile(t, "job/b.txt", "bb");
    await writeFile(t, "job/a/z.txt", "z");
    await writeFile(t, "job/a/y.txt", "yyy");
    await writeFile(t, "elsewhere.txt");
    const res = await manifest("job");
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = await okBody(res);
    expect(body).toMatchObject({ root: "job", truncated: false, fileCount: 3, totalBytes: 6 });
    expect(body.files.map((f) => [f.path, f.size])).toEqual([
      ["a/y.txt", 3],
      ["a/z.txt", 1],
      ["b.txt", 2],
    ]);
    expect(body.files[0]!.modifiedAt).toBe("2026-06-01T12:00:00.000Z");
    expect((await okBody(await manifest())).fileCount).toBe(4);
  });

  it("says truncated past the limit", async () => {
    for (let i = 0; i < 6; i++) await writeFile(t, `m/${i}.txt`);
    t.deps.files.limits.manifest = 5;
    expect(await okBody(await manifest("m"))).toMatchObject({
      truncated: true,
      fileCount: 5,
      limit: 5,
    });
    t.deps.files.limits.manifest = 6;
    expect((await okBody(await manifest("m"))).truncated).toBe(false);
  });

  it("answers 404 for an unknown folder and validation_failed for a file", async () => {
    await writeFile(t, "f.txt");
    expect((await manifest("nope")).status).toBe(404);
    expect(await refusal(await manifest("f.txt"))).toMatchObject({
      status: 400,
      code: "validation_failed",
    });
  });
});
