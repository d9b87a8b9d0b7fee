import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

it("a write the database has no room for is 507 insufficient_storage, and reads go on", async () => {
  // SQLite's own limit on the file's pages: a write that needs one more page fails with
  // SQLITE_FULL, as it does on a full disk.
  const pages = t.deps.db.pragma("page_count", { simple: true }) as number;
  t.deps.db.pragma(`max_page_count = ${pages}`);
  let refused: Awaited<ReturnType<TestApp["call"]>> | undefined;
  for (let i = 0; i < 500 && !refused; i++) {
    const res = await t.call("POST", t.w("/files/folder"), {
      body: { path: `Full/${"f".repeat(200)}-${i}` },
    });
    if (res.status !== 201) refused = res;
  }
  expect(refused?.status).toBe(507);
  expect(refused?.json.error).toMatchObject({
    code: "insufficient_storage",
    details: { reason: "disk_full" },
  });
  const listed = await t.call("GET", t.w("/files?path=Full"));
  expect(listed.status).toBe(200);
});
