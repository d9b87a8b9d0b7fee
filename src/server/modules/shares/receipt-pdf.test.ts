import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { formatBytes } from "@/contract/format";
import { deliveryLabel, deliveryMeaning } from "@/contract/receipt-verdict";
import { writeFile } from "@/server/testing/files-client";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import {
  checkSharePassword,
  recordShareDownload,
  recordShareView,
  resolveShareLink,
} from "./share-access";
import { shareRow } from "./shares.repository";

/* The client's receipt and the sender's audit report, read back with pdftotext. */

let t: TestApp;
testAppEach(async (app) => {
  t = app;
  await writeFile(t, "Out/a.mov", "alpha");
});

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const ADDRESS = "198.51.100.7";
const share = async (body: Record<string, unknown>) => {
  const res = await t.call("POST", t.w("/shares"), { body });
  expect(res.status).toBe(201);
  return res.json as { id: string; recipientLinks: { email: string; url: string }[] };
};
const fileOf = async (url: string) => {
  const res = await t.app.request(t.w(url), {
    headers: { Authorization: `Bearer ${t.keyWith(["receipts:read"])}` },
  });
  expect([res.status, res.headers.get("content-type")]).toEqual([200, "application/pdf"]);
  const file = path.join(t.dir, "doc.pdf");
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
};
const textOf = async (url: string) =>
  execFileSync("pdftotext", ["-layout", await fileOf(url), "-"], { encoding: "utf8" });
const downloadAll = (shareId: string, files: { path: string; content: string }[]) =>
  recordShareDownload(t.deps, {
    shareId,
    recipientId: null,
    transferId: null,
    address: ADDRESS,
    startedAt: t.clock.now(),
    completedAt: t.clock.now() + 1000,
    files: files.map((f) => ({ path: f.path, bytes: f.content.length, sha256: sha(f.content) })),
  });

describe("the client's receipt and the audit report", () => {
  it("gives the client the verdict without addresses or failed passwords, and the sender both", async () => {
    const s = await share({ paths: ["Out"], password: "open sesame" });
    await checkSharePassword(t.deps, {
      share: shareRow(t.deps.db, s.id)!,
      recipientId: null,
      address: "203.0.113.9",
      password: "wrong guess",
    }).catch(() => {});
    recordShareView(t.deps, { shareId: s.id, recipientId: null, address: ADDRESS });
    downloadAll(s.id, [{ path: "Out/a.mov", content: "alpha" }]);

    const client = await textOf(`/shares/${s.id}/receipt.pdf`);
    expect(client).toContain(deliveryLabel.verified);
    expect(client).toContain(deliveryMeaning.verified);
    expect(client).toContain(sha("alpha"));
    expect(client).not.toMatch(/\d+\.\d+\.\d+\.\d+/);
    expect(client).not.toMatch(/password/i);

    const audit = await textOf(`/shares/${s.id}/audit.pdf`);
    expect(audit).toContain("Audit report");
    expect(audit).toContain(deliveryMeaning.verified);
    expect(audit).toContain(ADDRESS);
    expect(audit).toContain("203.0.113.9");
    expect(audit).toContain("wrong password");
  });

  it("says who holds which file, and a clean download after a failed one verifies", async () => {
    await writeFile(t, "Out/b.wav", "bravo");
    const s = await share({ paths: ["Out"], recipients: ["ana@example.com"] });
    const ana = resolveShareLink(t.deps.db, s.recipientLinks[0]!.url.split("/").pop()!)!;
    const get = (content: string) =>
      recordShareDownload(t.deps, {
        shareId: s.id,
        recipientId: ana.recipientId,
        transferId: null,
        address: ADDRESS,
        startedAt: t.clock.now(),
        completedAt: t.clock.now() + 1000,
        files: [{ path: "Out/a.mov", bytes: 5, sha256: sha(content) }],
      });
    get("corrupted");
    let text = await textOf(`/shares/${s.id}/receipt.pdf`);
    expect(text).toContain(deliveryLabel.failed);
    expect(text).toMatch(/ana@example\.com\s+Out\/a\.mov\s+did not match/);
    get("alpha");
    text = await textOf(`/shares/${s.id}/receipt.pdf`);
    expect(text).toContain(deliveryLabel.partly_delivered);
    expect(text).toMatch(/ana@example\.com\s+Out\/a\.mov\s+verified/);
    expect(text).toMatch(/ana@example\.com\s+Out\/b\.wav\s+not downloaded/);
  });

  it("prints non-Latin names as themselves", async () => {
    const name = "Ærø Łódź Москва 東京 ملف";
    await writeFile(t, `Out/${name}.mov`, "film");
    const s = await share({ paths: ["Out"], title: "Ελλάδα 東京" });
    for (const doc of ["receipt.pdf", "audit.pdf", "delivery-note.pdf"]) {
      const text = await textOf(`/shares/${s.id}/${doc}`);
      expect(text).toContain("Ελλάδα 東京");
      // pdftotext marks the Arabic run with direction marks; the letters are as written.
      for (const word of name.split(" ")) expect(text).toContain(word);
      expect(text).not.toContain("?");
    }
  });

  it("groups repeats, wraps a comment whole and sizes files as the console does", async () => {
    const big = "x".repeat(1_500);
    await writeFile(t, "Out/b.wav", big);
    const s = await share({ paths: ["Out"] });
    for (let i = 0; i < 13; i++)
      recordShareView(t.deps, { shareId: s.id, recipientId: null, address: ADDRESS });
    const comment =
      "Can we get the stems as separate WAV files before Friday, please? The client wants them for the trailer mix.";
    const posted = await t.call("POST", t.w(`/shares/${s.id}/comments`), {
      body: { body: comment },
    });
    expect(posted.status).toBe(201);

    const audit = await textOf(`/shares/${s.id}/audit.pdf`);
    expect(audit).toContain("viewed ×13");
    expect(audit.match(/ viewed\b/g)).toHaveLength(1);
    const words = audit.replace(/\s+/g, " ");
    for (const word of comment.split(" ")) expect(words).toContain(word);
    expect(audit).not.toContain("~");
    expect(audit).toContain(formatBytes(1_500));
    expect(await textOf(`/shares/${s.id}/receipt.pdf`)).toContain(formatBytes(1_500));
  });

  it("is branded with the workspace's name and logo from its settings", async () => {
    const renamed = await t.call("PATCH", t.w("/settings"), {
      body: { name: "Северный Свет 北光" },
    });
    expect(renamed.status).toBe(200);
    const png = await sharp({
      create: { width: 300, height: 100, channels: 3, background: "#123" },
    })
      .png()
      .toBuffer();
    const put = await t.app.request(t.w("/settings/logo"), {
      method: "PUT",
      headers: { Authorization: `Bearer ${t.adminKey}`, "Content-Type": "image/png" },
      body: png,
    });
    expect(put.status).toBe(200);
    const s = await share({ paths: ["Out"] });
    const file = await fileOf(`/shares/${s.id}/receipt.pdf`);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("Северный Свет 北光");
    expect(text).not.toContain("My workspace");
    const images = execFileSync("pdfimages", ["-list", file], { encoding: "utf8" });
    expect(images).toMatch(/^\s*1\s+\d+\s+image\s+300\s+100\b/m);
  });
});
