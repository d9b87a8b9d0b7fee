import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ManualClock } from "@/server/lib/clock";
import { seedEntries } from "@/server/modules/files/bulk-seed";
import { writeFile } from "@/server/testing/files-client";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { pdfRenderer } from "./receipt-render";
import { recordShareDownload } from "./share-access";

let t: TestApp;
let clock: ManualClock;
testAppEach(async (app, c) => {
  t = app;
  clock = c;
  await writeFile(t, "Out/a.mov", "alpha");
});

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const share = async (paths: string[]) => {
  const res = await t.call("POST", t.w("/shares"), { body: { paths } });
  expect(res.status).toBe(201);
  return res.json.id as string;
};
const pdf = async (url: string) => {
  const res = await t.app.request(t.w(url), {
    headers: { Authorization: `Bearer ${t.adminKey}` },
  });
  expect([res.status, res.headers.get("content-type")]).toEqual([200, "application/pdf"]);
  return Buffer.from(await res.arrayBuffer());
};
const textOf = (bytes: Buffer) => {
  const file = path.join(t.dir, "r.pdf");
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
};

describe("receipt PDFs", () => {
  it("answers from the cache while the receipt is unchanged, and renders again after a download", async () => {
    const id = await share(["Out"]);
    const first = await pdf(`/shares/${id}/receipt.pdf`);
    expect(textOf(first)).toContain("NOT DELIVERED YET");
    clock.advance(60_000);
    expect((await pdf(`/shares/${id}/receipt.pdf`)).equals(first)).toBe(true);
    expect(pdfRenderer(t.deps).renders).toBe(1);
    recordShareDownload(t.deps, {
      shareId: id,
      recipientId: null,
      transferId: null,
      address: "198.51.100.7",
      startedAt: clock.now(),
      completedAt: clock.now() + 1000,
      files: [{ path: "Out/a.mov", bytes: 5, sha256: sha("alpha") }],
    });
    const after = await pdf(`/shares/${id}/receipt.pdf`);
    expect(after.equals(first)).toBe(false);
    expect(textOf(after)).toContain("VERIFIED");
    expect(textOf(after)).not.toContain("NOT DELIVERED");
    // The delivery note is a document of its own, cached beside the receipt.
    expect(textOf(await pdf(`/shares/${id}/delivery-note.pdf`))).toContain("Delivery note");
    expect(pdfRenderer(t.deps).renders).toBe(3);
  });

  it("keeps answering other requests while a 10,000-file receipt renders", async () => {
    await seedEntries(t.deps.files, t.workspaceId, "Frames", 10_000, {
      folderEvery: 0,
      pauseMs: 0,
    });
    const id = await share(["Frames"]);
    let pdfDone = false;
    const rendering = pdf(`/shares/${id}/receipt.pdf`).then((bytes) => {
      pdfDone = true;
      return bytes;
    });
    // Requests issued one after another, each after a turn of the event loop (which a render
    // on the main thread holds up until it is done), all answered before the PDF.
    let answeredMeanwhile = 0;
    while (!pdfDone && answeredMeanwhile < 5) {
      await new Promise((turn) => setImmediate(turn));
      const res = await t.call("GET", t.w(`/shares/${id}`));
      expect(res.status).toBe(200);
      if (!pdfDone) answeredMeanwhile++;
    }
    expect(answeredMeanwhile).toBe(5);
    expect(textOf(await rendering)).toContain("Page 1 of");
  }, 60_000);
});
