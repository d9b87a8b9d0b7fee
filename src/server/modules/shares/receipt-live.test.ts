import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import type { ManualClock } from "@/server/lib/clock";
import { writeFile } from "@/server/testing/files-client";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { recordShareDownload } from "./share-access";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

let t: TestApp;
let clock: ManualClock;
testAppEach(async (app, manual) => {
  t = app;
  clock = manual;
  await writeFile(t, "Out/a.mov", "alpha");
});

it("answers a poll of an unchanged receipt with a 304, and a download changes its ETag", async () => {
  const created = await t.call("POST", t.w("/shares"), { body: { paths: ["Out"] } });
  expect(created.status).toBe(201);
  const receiptPath = t.w(`/shares/${created.json.id}/receipt`);
  const first = await t.call("GET", receiptPath);
  const etag = first.headers.get("ETag");
  expect(first.status).toBe(200);
  expect(etag).toMatch(/^".+"$/);
  expect(first.headers.get("Cache-Control")).toBe("private, no-cache");

  // Time passes (generatedAt moves) but nothing happens to the share.
  clock.advance(5_000);
  const again = await t.call("GET", receiptPath, { headers: { "If-None-Match": etag! } });
  expect(again.status).toBe(304);
  expect(again.text).toBe("");

  recordShareDownload(t.deps, {
    shareId: created.json.id,
    recipientId: null,
    transferId: "tr_1",
    address: "198.51.100.7",
    startedAt: t.clock.now(),
    completedAt: t.clock.now() + 1000,
    files: [{ path: "Out/a.mov", sha256: sha("alpha"), bytes: 5 }],
  });
  const changed = await t.call("GET", receiptPath, { headers: { "If-None-Match": etag! } });
  expect(changed.status).toBe(200);
  expect(changed.json.downloads).toHaveLength(1);
  expect(changed.headers.get("ETag")).not.toBe(etag);
});
