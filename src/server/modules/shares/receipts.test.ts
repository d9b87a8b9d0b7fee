import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type EventType, eventDataSchemas } from "@/contract/events";
import { deliveryMeaning } from "@/contract/receipt-verdict";
import { SHARE_PASSWORD_FREE_TRIES } from "@/contract/rules";
import { type CreateShareBody, csvField, shareStatuses, shareStatusOf } from "@/contract/shares";
import { ManualClock } from "@/server/lib/clock";
import { seedEntries } from "@/server/modules/files/bulk-seed";
import { expectBody, expectError, okBody } from "@/server/testing/expect-body";
import { writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import {
  checkSharePassword,
  recordShareDownload,
  recordShareView,
  requireOpenShare,
  resolveShareLink,
} from "./share-access";
import { sharesRouter } from "./shares.index";
import { shareRow } from "./shares.repository";

let t: TestApp;
let clock: ManualClock;
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

beforeEach(async () => {
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  t = await createTestApp({ clock, config: { workspaceName: "Northlight Post" } });
  await writeFile(t, "Out/a.mov", "alpha");
  await writeFile(t, "Out/b.wav", "bravo");
});
afterEach(() => t.close());

const api = () => t.client(sharesRouter).workspaces[":workspaceId"].shares;
const share = async (over: Partial<CreateShareBody> = {}) =>
  expectBody(await api().$post({ param: t.ws, json: { paths: ["Out"], ...over } }), 201);
const receipt = async (shareId: string) =>
  okBody(await api()[":shareId"].receipt.$get({ param: { ...t.ws, shareId } }));
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);
const download = (
  shareId: string,
  recipientId: string | null,
  files: { path: string; sha256: string | null }[],
  completed = true,
) =>
  recordShareDownload(t.deps, {
    shareId,
    recipientId,
    transferId: "tr_1",
    address: "198.51.100.7",
    startedAt: clock.now(),
    completedAt: completed ? clock.now() + 1000 : null,
    files: files.map((f) => ({ ...f, bytes: 5 })),
  });
const both = [
  { path: "Out/a.mov", sha256: sha("alpha") },
  { path: "Out/b.wav", sha256: sha("bravo") },
];
const events = (type: EventType) =>
  (
    t.deps.db
      .prepare("SELECT data FROM events WHERE type = ? ORDER BY id")
      .pluck()
      .all(type) as string[]
  ).map((d) => eventDataSchemas[type].parse(JSON.parse(d)));

describe("status rule", () => {
  it("is revoked, else expired, else exhausted, else active", () => {
    const s = { revokedAt: null, expiresAt: 100, maxDownloads: 2, downloads: 1 };
    expect(shareStatusOf(s, 50)).toBe("active");
    expect(shareStatusOf({ ...s, downloads: 2 }, 50)).toBe("exhausted");
    expect(shareStatusOf({ ...s, downloads: 2 }, 100)).toBe("expired");
    expect(shareStatusOf({ ...s, revokedAt: 10 }, 100)).toBe("revoked");
    expect(shareStatusOf({ ...s, maxDownloads: null, downloads: 99 }, 50)).toBe("active");
    expect(shareStatuses).toEqual(["active", "expired", "revoked", "exhausted"]);
  });
});

describe("the recipient side", () => {
  it("counts views and downloads for the recipient of the link, or as anonymous", async () => {
    const s = await share({ recipients: ["ana@example.com"], maxDownloads: 2, openLink: true });
    const ana = resolveShareLink(t.deps.db, tokenOf(s.recipientLinks[0]!.url))!;
    const plain = resolveShareLink(t.deps.db, tokenOf(s.url!))!;
    expect(() => requireOpenShare(plain.share, clock.now())).not.toThrow();
    expect(() => requireOpenShare(plain.share, Date.parse(s.expiresAt))).toThrow(
      expect.objectContaining({ details: { reason: "share_expired", status: "expired" } }),
    );
    recordShareView(t.deps, {
      shareId: s.id,
      recipientId: ana.recipientId,
      address: "198.51.100.7",
    });
    recordShareView(t.deps, {
      shareId: s.id,
      recipientId: plain.recipientId,
      address: "203.0.113.1",
    });
    const ok = download(s.id, ana.recipientId, both);
    expect(ok).toMatchObject({ verified: true, unverifiedFiles: [] });
    const altered = download(s.id, null, [
      both[0]!,
      { path: "Out/b.wav", sha256: sha("tampered") },
    ]);
    expect(altered).toMatchObject({ verified: false, unverifiedFiles: ["Out/b.wav"] });
    expect(shareRow(t.deps.db, s.id)!.download_count).toBe(2);
    expect(() => requireOpenShare(shareRow(t.deps.db, s.id)!, clock.now())).toThrow(
      expect.objectContaining({
        status: 403,
        details: { reason: "share_exhausted", status: "exhausted" },
      }),
    );
    expect(
      (await okBody(await api()[":shareId"].$get({ param: { ...t.ws, shareId: s.id } }))).status,
    ).toBe("exhausted");
    expect(events("share.downloaded")).toEqual([
      expect.objectContaining({
        shareId: s.id,
        recipient: "ana@example.com",
        files: 2,
        bytes: 10,
        verified: true,
      }),
      expect.objectContaining({
        shareId: s.id,
        recipient: null,
        files: 2,
        bytes: 10,
        verified: false,
      }),
    ]);
    expect(() => download(s.id, null, [{ path: "Elsewhere/x", sha256: null }])).toThrow(
      expect.objectContaining({ status: 400 }),
    );
    const other = await share();
    expect(() => download(other.id, ana.recipientId, both)).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });

  it("logs wrong passwords and slows repeated ones down", async () => {
    const s = await share({ password: "open sesame" });
    const row = shareRow(t.deps.db, s.id)!;
    const attempt = (password: string, address = "198.51.100.7") =>
      checkSharePassword(t.deps, { share: row, recipientId: null, address, password });
    await expect(attempt("open sesame")).resolves.toBeUndefined();
    for (let i = 0; i < SHARE_PASSWORD_FREE_TRIES; i++)
      await expect(attempt("wrong")).rejects.toMatchObject({
        status: 403,
        details: { reason: "wrong_password" },
      });
    // past the free tries: wait 1 s after the last wrong one, even with the right password
    await expect(attempt("open sesame")).rejects.toMatchObject({
      status: 429,
      code: "rate_limited",
      details: { retryAfterSeconds: 1 },
    });
    // another address is not held up
    await expect(attempt("open sesame", "203.0.113.5")).resolves.toBeUndefined();
    clock.advance(1000);
    await expect(attempt("wrong")).rejects.toMatchObject({ status: 403 });
    await expect(attempt("wrong")).rejects.toMatchObject({
      status: 429,
      details: { retryAfterSeconds: 2 },
    });
    clock.advance(2000);
    await expect(attempt("open sesame")).resolves.toBeUndefined();
    // the window passes and the tries are free again
    clock.advance(15 * 60_000);
    await expect(attempt("wrong")).rejects.toMatchObject({ status: 403 });
    const failures = t.deps.db
      .prepare("SELECT count(*) FROM share_password_failures")
      .pluck()
      .get();
    expect(failures).toBe(SHARE_PASSWORD_FREE_TRIES + 2);
    const timeline = (await receipt(s.id)).timeline.filter((e) => e.type === "password_failed");
    expect(timeline).toHaveLength(SHARE_PASSWORD_FREE_TRIES + 2);
    expect(timeline[0]!.detail).toBe("198.51.100.7");
  });
});

describe("the receipt", () => {
  it("answers did everyone get everything, intact", async () => {
    const s = await share({
      recipients: ["ana@example.com", "bo@example.com"],
      message: "For review",
    });
    const link = (i: number) => resolveShareLink(t.deps.db, tokenOf(s.recipientLinks[i]!.url))!;
    const anaLink = link(0);
    const boLink = link(1);
    let r = await receipt(s.id);
    expect(r.integrity).toBe("none");
    expect(r.checksumType).toBe("sha256");
    expect(r.receiptId).toBe(`rcpt_${s.id}`);
    expect(r.share.workspace.name).toBe("Northlight Post");
    expect(r.totalBytes).toBe(10);
    expect(r.files).toEqual([
      { path: "Out/a.mov", sizeBytes: 5, sha256: sha("alpha"), mimeType: expect.any(String) },
      { path: "Out/b.wav", sizeBytes: 5, sha256: sha("bravo"), mimeType: expect.any(String) },
    ]);

    clock.advance(60_000);
    recordShareView(t.deps, {
      shareId: s.id,
      recipientId: anaLink.recipientId,
      address: "198.51.100.7",
    });
    download(s.id, anaLink.recipientId, [both[0]!]);
    clock.advance(60_000);
    download(s.id, anaLink.recipientId, [both[1]!]);
    download(s.id, boLink.recipientId, both, false);
    recordShareView(t.deps, { shareId: s.id, recipientId: null, address: "203.0.113.1" });
    download(s.id, null, both);
    r = await receipt(s.id);
    // ana holds everything verified, bo's download did not finish: not everyone has it yet
    expect(r.verdict).toBe("partly_delivered");
    expect(r.integrity).toBe("none");
    const [ana, bo] = r.recipients;
    expect(ana).toMatchObject({
      email: "ana@example.com",
      viewed: true,
      downloaded: true,
      verified: true,
      downloads: 2,
      filesDownloaded: 2,
    });
    expect(ana!.firstViewedAt).toBe("2026-06-01T12:01:00.000Z");
    expect(ana!.delivery).toBe("verified");
    expect(bo).toMatchObject({
      viewed: false,
      downloaded: false,
      verified: false,
      downloads: 0,
      delivery: "not_delivered",
    });
    expect(r.anonymous).toMatchObject({ views: 1, downloads: 1, verifiedDownloads: 1 });
    expect(r.downloads).toHaveLength(4);
    expect(r.downloads[2]).toMatchObject({
      who: { kind: "recipient", email: "bo@example.com" },
      completedAt: null,
      verified: false,
      address: "198.51.100.7",
      transferId: "tr_1",
      fileCount: 2,
      bytes: 10,
    });
    expect(r.downloads[0]!.files).toEqual([
      { path: "Out/a.mov", sha256: sha("alpha"), matched: true },
    ]);

    // one altered download and the receipt no longer says verified
    download(s.id, boLink.recipientId, [both[0]!, { path: "Out/b.wav", sha256: null }]);
    r = await receipt(s.id);
    expect(r.verdict).toBe("delivered_unverified");
    expect(r.integrity).toBe("none");
    expect(r.recipients[1]).toMatchObject({
      downloaded: true,
      verified: false,
      delivery: "delivered_unverified",
    });
    expect(r.downloads[4]!.unverifiedFiles).toEqual([
      { path: "Out/b.wav", expectedSha256: sha("bravo"), reportedSha256: null },
    ]);

    await okBody(
      await api()[":shareId"].$patch({
        param: { ...t.ws, shareId: s.id },
        json: { expiresInDays: 9 },
      }),
    );
    await expectBody(
      await api()[":shareId"].comments.$post({
        param: { ...t.ws, shareId: s.id },
        json: { body: "All here" },
      }),
      201,
    );
    await okBody(await api()[":shareId"].$delete({ param: { ...t.ws, shareId: s.id } }));
    const types = (await receipt(s.id)).timeline.map((e) => e.type);
    expect(types[0]).toBe("created");
    for (const type of ["sent", "viewed", "downloaded", "extended", "commented", "revoked"])
      expect(types).toContain(type);
  });

  it("recovers: a corrupted download then a clean one of the same file is verified", async () => {
    const s = await share({ recipients: ["ana@example.com"] });
    const ana = resolveShareLink(t.deps.db, tokenOf(s.recipientLinks[0]!.url))!;
    download(s.id, ana.recipientId, [both[0]!, { path: "Out/b.wav", sha256: sha("tampered") }]);
    let r = await receipt(s.id);
    expect(r.verdict).toBe("failed");
    expect(r.recipients[0]).toMatchObject({ delivery: "failed", verified: false });
    expect(r.matrix).toEqual([
      {
        recipientId: ana.recipientId,
        email: "ana@example.com",
        state: "failed",
        cells: "vx",
        decidedBy: [2, 0],
      },
    ]);
    clock.advance(60_000);
    download(s.id, ana.recipientId, [both[1]!]);
    r = await receipt(s.id);
    expect(r.verdict).toBe("verified");
    expect(r.integrity).toBe("verified");
    expect(r.recipients[0]).toMatchObject({
      delivery: "verified",
      downloaded: true,
      verified: true,
    });
    // b.wav's cell is now the second download's; the failure stays as history
    expect(r.matrix[0]).toMatchObject({ state: "verified", cells: "vv", decidedBy: [1, 0, 1, 1] });
    expect(r.downloads.map((d) => d.verified)).toEqual([false, true]);
  });

  it("lists an expiry on the timeline", async () => {
    const s = await share({ expiresInDays: 1 });
    clock.advance(86_400_000);
    await t.deps.jobs.runDue();
    const r = await receipt(s.id);
    expect(r.share.status).toBe("expired");
    expect(r.timeline.at(-1)).toMatchObject({ type: "expired", at: "2026-06-02T12:00:00.000Z" });
  });
});

const r0 = (shareId: string) =>
  t.deps.db
    .prepare("SELECT id FROM share_downloads WHERE share_id = ? ORDER BY started_at, id")
    .pluck()
    .get(shareId) as string;

describe("the verification report (CSV)", () => {
  it("quotes every text field and defuses formulas", () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    for (const lead of ["+", "-", "@", "\t", "\r"])
      expect(csvField(`${lead}1`)).toBe(`"'${lead}1"`);
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(-5)).toBe("-5");
    expect(csvField(null)).toBe("");
    expect(csvField("plain.mov")).toBe('"plain.mov"');
    // A spreadsheet that splits on ";" (semicolon locales) sees one quoted field, not "=1+2".
    expect(csvField("a;=1+2;x.txt")).toBe('"a;=1+2;x.txt"');
  });

  it("has one row per recipient and file", async () => {
    const s = await share({ recipients: ["ana@example.com", "bo@example.com"] });
    const ana = resolveShareLink(t.deps.db, tokenOf(s.recipientLinks[0]!.url))!;
    download(s.id, ana.recipientId, [both[1]!]);
    const res = await t.call("GET", t.w(`/shares/${s.id}/receipt.csv`), {
      key: t.keyWith(["receipts:read"]),
    });
    const lines = res.text.split("\r\n");
    const at = `"2026-06-01T12:00:01.000Z","${r0(s.id)}"`;
    expect(lines).toEqual([
      "recipient,path,size_bytes,sha256,status,downloaded_at,download_id",
      `"ana@example.com","Out/a.mov",5,"${sha("alpha")}","not_downloaded",,`,
      `"ana@example.com","Out/b.wav",5,"${sha("bravo")}","verified",${at}`,
      `"bo@example.com","Out/a.mov",5,"${sha("alpha")}","not_downloaded",,`,
      `"bo@example.com","Out/b.wav",5,"${sha("bravo")}","not_downloaded",,`,
      "",
    ]);
  });

  it("reports each file, safe to open in a spreadsheet", async () => {
    await writeFile(t, "=cmd|' /C calc'!A0.mov", "evil");
    await writeFile(t, "@SUM(1+1).txt", "at");
    await writeFile(t, 'Out/say "hi", then go.txt', "quotes");
    await writeFile(t, "Out/a;=1+2;x.txt", "semi");
    const s = await share({ paths: ["Out", "=cmd|' /C calc'!A0.mov", "@SUM(1+1).txt"] });
    download(s.id, null, [...both.slice(0, 1), { path: "Out/b.wav", sha256: sha("nope") }]);
    const res = await t.call("GET", t.w(`/shares/${s.id}/receipt.csv`), {
      key: t.keyWith(["receipts:read"]),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="receipt-${s.id}.csv"`,
    );
    const lines = res.text.split("\r\n");
    expect(lines[0]).toBe("recipient,path,size_bytes,sha256,status,downloaded_at,download_id");
    const row = (path: string, size: number, hash: string, status: string) =>
      `"plain link",${path},${size},"${hash}","${status}"`;
    const at = `"2026-06-01T12:00:01.000Z","${r0(s.id)}"`;
    expect(lines).toContain(
      `${row(`"'=cmd|' /C calc'!A0.mov"`, 4, sha("evil"), "not_downloaded")},,`,
    );
    expect(lines).toContain(`${row(`"'@SUM(1+1).txt"`, 2, sha("at"), "not_downloaded")},,`);
    expect(lines).toContain(`${row('"Out/a.mov"', 5, sha("alpha"), "verified")},${at}`);
    expect(lines).toContain(`${row('"Out/b.wav"', 5, sha("bravo"), "failed")},${at}`);
    expect(lines).toContain(
      `${row('"Out/say ""hi"", then go.txt"', 6, sha("quotes"), "not_downloaded")},,`,
    );
    expect(lines).toContain(`${row('"Out/a;=1+2;x.txt"', 4, sha("semi"), "not_downloaded")},,`);
    expect(lines.at(-1)).toBe("");
  });
});

describe("PDFs", () => {
  const pdfText = (pdf: Buffer, name: string) => {
    const file = path.join(t.dir, name);
    fs.writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const pages = Number(
      /Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))![1],
    );
    // the first page renders as an image too
    execFileSync("pdftoppm", [
      "-png",
      "-r",
      "40",
      "-f",
      "1",
      "-l",
      "1",
      file,
      path.join(t.dir, `${name}-page`),
    ]);
    expect(
      fs.readdirSync(t.dir).some((f) => f.startsWith(`${name}-page`) && f.endsWith(".png")),
    ).toBe(true);
    return { text, pages };
  };
  const get = async (url: string) => {
    const res = await t.app.request(t.w(url), {
      headers: { Authorization: `Bearer ${t.keyWith(["receipts:read"])}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    return Buffer.from(await res.arrayBuffer());
  };

  it("brands the receipt and the delivery note and lists every checksum", async () => {
    const s = await share({
      recipients: ["ana@example.com"],
      title: "Reel 4 final",
      message: "Enjoy",
    });
    const ana = resolveShareLink(t.deps.db, tokenOf(s.recipientLinks[0]!.url))!;
    download(s.id, ana.recipientId, both);
    const receiptPdf = pdfText(await get(`/shares/${s.id}/receipt.pdf`), "receipt.pdf");
    expect(receiptPdf.text).toContain("Northlight Post");
    expect(receiptPdf.text).toContain("Reel 4 final");
    expect(receiptPdf.text).toContain(deliveryMeaning.verified);
    expect(receiptPdf.text).toContain("ana@example.com");
    expect(receiptPdf.text).toContain(sha("alpha"));
    expect(receiptPdf.text).toContain(sha("bravo"));
    expect(receiptPdf.text).toContain("Page 1 of 1");
    const note = pdfText(await get(`/shares/${s.id}/delivery-note.pdf`), "note.pdf");
    expect(note.text).toContain("Delivery note");
    expect(note.text).toContain("Northlight Post");
    expect(note.text).toContain("Enjoy");
    expect(note.text).toContain(sha("bravo"));
    expect(note.text).toContain("Received by");
  });

  it("pages through 10,000 files", async () => {
    await seedEntries(t.deps.files, t.workspaceId, "Frames", 10_000, {
      folderEvery: 0,
      pauseMs: 0,
    });
    const s = await share({ paths: ["Frames"] });
    const r = await receipt(s.id);
    const last = r.files.at(-1)!;
    const receiptPdf = pdfText(await get(`/shares/${s.id}/receipt.pdf`), "big.pdf");
    expect(receiptPdf.pages).toBeGreaterThan(100);
    expect(receiptPdf.text).toContain(`Page ${receiptPdf.pages} of ${receiptPdf.pages}`);
    expect(receiptPdf.text).toContain(last.path);
    expect(receiptPdf.text).toContain(last.sha256);
    const note = pdfText(await get(`/shares/${s.id}/delivery-note.pdf`), "big-note.pdf");
    expect(note.pages).toBeGreaterThan(100);
    expect(note.text).toContain(last.path);
    // Two 100-page PDFs: about 6 s on a quiet machine, past 60 s at load 12 on 2 cores.
  }, 180_000);

  it("answers 404 for an unknown share", async () => {
    const refused = await expectError(
      await api()[":shareId"].receipt.$get({ param: { ...t.ws, shareId: "nope" } }),
      404,
    );
    expect(refused.code).toBe("not_found");
  });
});
