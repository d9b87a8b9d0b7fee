import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseWaveform } from "@/contract/media-rules";
import type { ManualClock } from "@/server/lib/clock";
import { setProtection } from "@/server/modules/files/files.repository";
import { purgeExpired } from "@/server/modules/files/files.workers";
import { makeClip, makePdf, makeTone } from "@/server/testing/media";
import { createTestApp, type TestApp, testAppEach } from "@/server/testing/test-app";
import { sweepRenditions } from "./media.workers";

let clip: Buffer;
let silentClip: Buffer;
let tone: Buffer;
let pdf: Buffer;
beforeAll(async () => {
  [clip, silentClip, tone, pdf] = await Promise.all([
    makeClip(),
    makeClip({ audio: false, pattern: "smptebars" }),
    makeTone(),
    makePdf(3),
  ]);
});

let t: TestApp;
let clock: ManualClock;
testAppEach((app, c) => {
  t = app;
  clock = c;
});

const write = (p: string, bytes: Buffer | string) =>
  t.deps.files.writeFile(t.workspaceId, p, bytes);
const status = async (q: string) => {
  const res = await t.call("GET", t.w(`/files/proxies?${q}`));
  expect(res.status).toBe(200);
  return res.json;
};
const render = (body: unknown) => t.call("POST", t.w("/files/proxies"), { body });
// biome-ignore lint/suspicious/noExplicitAny: entries as the JSON has them
const byKind = (s: any, kind: string, page = 0) =>
  s.proxies.find((p: { kind: string; page: number }) => p.kind === kind && p.page === page);
const bytesOf = async (q: string, headers: Record<string, string> = {}) => {
  const res = await t.app.request(t.w(`/files/proxy?${q}`), {
    headers: { Authorization: `Bearer ${t.adminKey}`, ...headers },
  });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
};

describe("video", () => {
  it("a live file: proxy, waveform and contact sheet, each ready with its bytes", async () => {
    await write("clips/a.mp4", clip);
    expect(
      (await status("path=clips/a.mp4")).proxies.map((p: { status: string }) => p.status),
    ).toEqual(["pending", "pending", "pending"]);
    expect((await render({ paths: ["clips/a.mp4"] })).json).toEqual({ queued: 3 });
    await t.deps.jobs.runDue();
    const s = await status("path=clips/a.mp4");
    expect(s).toMatchObject({ media: "video", fps: 25, protected: false });
    expect(s.durationMs).toBeGreaterThanOrEqual(1900);
    const proxy = byKind(s, "proxy720");
    // Never upscaled: a 160x90 source stays 160x90.
    expect(proxy).toMatchObject({ status: "ready", width: 160, height: 90, error: null });
    expect(proxy.sizeBytes).toBeGreaterThan(0);
    expect(proxy.url).toMatch(/\/v1\/public\/media\//);
    const sheet = byKind(s, "contact_sheet");
    expect(sheet.layout).toEqual({
      columns: 2,
      rows: 1,
      tileWidth: 160,
      tileHeight: 90,
      tileCount: 2,
      intervalMs: 1000,
    });
    expect(sheet).toMatchObject({ width: 320, height: 90 });

    // Polled: the same answer is a 304 for its ETag.
    const again = await t.call("GET", t.w("/files/proxies?path=clips/a.mp4"));
    const held = await t.call("GET", t.w("/files/proxies?path=clips/a.mp4"), {
      headers: { "If-None-Match": again.headers.get("etag")! },
    });
    expect(held.status).toBe(304);
    const mp4 = await bytesOf("path=clips/a.mp4&kind=proxy720");
    expect(mp4.res.status).toBe(200);
    expect(mp4.res.headers.get("content-type")).toBe("application/octet-stream");
    expect(mp4.body.subarray(4, 8).toString()).toBe("ftyp");
    // faststart: the index (moov) comes before the media data (mdat).
    expect(mp4.body.indexOf("moov")).toBeLessThan(mp4.body.indexOf("mdat"));
    const wave = await bytesOf("path=clips/a.mp4&kind=waveform");
    const peaks = parseWaveform(new Uint8Array(wave.body).buffer);
    expect(peaks?.sampleRate).toBe(16000);
    expect(peaks!.pairs.length / 2).toBeGreaterThan(100);
    expect(Math.max(...peaks!.pairs)).toBeGreaterThan(10);
    const jpeg = await bytesOf("path=clips/a.mp4&kind=contact_sheet");
    expect(jpeg.body.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it("a kept version has its own renditions by `version`", async () => {
    await write("v.mp4", clip);
    await write("v.mp4", silentClip);
    const [version] = (await t.call("GET", t.w("/files/versions?path=v.mp4"))).json;
    expect((await render({ versions: [version.id] })).json.queued).toBe(3);
    await t.deps.jobs.runDue();
    const kept = await status(`version=${version.id}`);
    expect(kept.proxies.map((p: { status: string }) => p.status)).toEqual([
      "ready",
      "ready",
      "ready",
    ]);
    // The live content has no sound: no waveform is planned for it once probed.
    await render({ paths: ["v.mp4"] });
    await t.deps.jobs.runDue();
    const live = await status("path=v.mp4");
    expect(live.proxies.map((p: { kind: string }) => p.kind)).toEqual([
      "proxy720",
      "contact_sheet",
    ]);
    expect(live.sha256).not.toBe(kept.sha256);
    const old = await bytesOf(`version=${version.id}&kind=waveform`);
    expect(old.res.status).toBe(200);
    const none = await t.call("GET", t.w("/files/proxy?path=v.mp4&kind=waveform"));
    expect(none.status).toBe(400);
    expect(none.json.error.details.issues[0].code).toBe("no_proxy");
  });

  it("a broken file fails with ffmpeg's reason, never a 500", async () => {
    await write("broken.mp4", "this is not a video at all");
    expect((await render({ paths: ["broken.mp4"] })).status).toBe(200);
    await t.deps.jobs.runDue();
    const s = await status("path=broken.mp4");
    expect(s.media).toBe("video");
    for (const p of s.proxies) {
      expect(p.status).toBe("failed");
      expect(p.error).toMatch(/invalid data/i);
      expect(p.error).not.toMatch(/blobs/);
    }
    const read = await t.call("GET", t.w("/files/proxy?path=broken.mp4&kind=proxy720"));
    expect(read.status).toBe(404);
    expect(read.json.error.details).toEqual({ reason: "not_ready", status: "failed" });
  });

  it("a clip shorter than one tile's interval still gets its one-tile contact sheet", async () => {
    await write("short.mp4", await makeClip({ seconds: 1, audio: false }));
    await render({ paths: ["short.mp4"] });
    await t.deps.jobs.runDue();
    const s = await status("path=short.mp4");
    expect(byKind(s, "contact_sheet")).toMatchObject({ status: "ready", layout: { tileCount: 1 } });
  });
});

describe("audio and PDF", () => {
  it("audio gets a waveform", async () => {
    await write("tone.wav", tone);
    expect((await render({ paths: ["tone.wav"] })).json.queued).toBe(1);
    await t.deps.jobs.runDue();
    const s = await status("path=tone.wav");
    expect(s).toMatchObject({ media: "audio", fps: null });
    expect(byKind(s, "waveform")).toMatchObject({ status: "ready", durationMs: 2000 });
  });

  it("a PDF's pages render when asked, one JPEG each", async () => {
    await write("doc.pdf", pdf);
    const before = await status("path=doc.pdf");
    expect(before.proxies).toMatchObject([{ kind: "page", page: 0, status: "pending" }]);
    expect((await render({ paths: ["doc.pdf"] })).json.queued).toBe(3);
    await t.deps.jobs.runDue();
    const s = await status("path=doc.pdf");
    expect(s).toMatchObject({ media: "pdf", pageCount: 3 });
    expect(s.proxies.map((p: { page: number; status: string }) => [p.page, p.status])).toEqual([
      [0, "ready"],
      [1, "ready"],
      [2, "ready"],
    ]);
    expect(byKind(s, "page", 1).width).toBe(1600);
    const page = await bytesOf("path=doc.pdf&kind=page&page=2");
    expect(page.res.status).toBe(200);
    expect(page.body.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await t.call("GET", t.w("/files/proxy?path=doc.pdf&kind=page&page=3"))).status).toBe(
      400,
    );
  });

  it("a kept version's pages and waveform, by `version`", async () => {
    await write("doc.pdf", pdf);
    await write("doc.pdf", await makePdf(1));
    await write("s.wav", tone);
    await write("s.wav", await makeTone(1));
    const versionOf = async (p: string) =>
      (await t.call("GET", t.w(`/files/versions?path=${p}`))).json[0].id as string;
    const [doc, sound] = [await versionOf("doc.pdf"), await versionOf("s.wav")];
    expect((await render({ versions: [doc, sound] })).json.queued).toBe(4);
    await t.deps.jobs.runDue();
    expect((await status(`version=${doc}`)).pageCount).toBe(3);
    expect((await bytesOf(`version=${doc}&kind=page&page=2`)).res.status).toBe(200);
    expect(byKind(await status(`version=${sound}`), "waveform")).toMatchObject({
      status: "ready",
      durationMs: 2000,
    });
    // The live PDF has one page: its page 2 is no proxy at all.
    const live = await t.call("GET", t.w("/files/proxy?path=doc.pdf&kind=page&page=2"));
    expect(live.status).toBe(400);
  });

  it("images get no proxies", async () => {
    await write("a.png", Buffer.from("89504e470d0a1a0a", "hex"));
    expect(await status("path=a.png")).toMatchObject({ media: "image", proxies: [] });
    expect((await render({ paths: ["a.png"] })).json.queued).toBe(0);
  });
});

describe("reads", () => {
  const ready = async () => {
    await write("r.wav", tone);
    await render({ paths: ["r.wav"] });
    await t.deps.jobs.runDue();
    return byKind(await status("path=r.wav"), "waveform");
  };

  it("Range: 206 with Content-Range, 416 past the end, If-Range on the ETag, 304 on If-None-Match", async () => {
    const entry = await ready();
    const whole = await bytesOf("path=r.wav&kind=waveform");
    const etag = whole.res.headers.get("etag")!;
    expect(whole.res.headers.get("accept-ranges")).toBe("bytes");
    const part = await bytesOf("path=r.wav&kind=waveform", { Range: "bytes=0-19" });
    expect(part.res.status).toBe(206);
    expect(part.res.headers.get("content-range")).toBe(`bytes 0-19/${entry.sizeBytes}`);
    expect(part.body).toEqual(whole.body.subarray(0, 20));
    const past = await bytesOf("path=r.wav&kind=waveform", { Range: `bytes=${entry.sizeBytes}-` });
    expect(past.res.status).toBe(416);
    expect(past.res.headers.get("content-range")).toBe(`bytes */${entry.sizeBytes}`);
    expect(JSON.parse(past.body.toString()).error.code).toBe("validation_failed");
    const stale = await bytesOf("path=r.wav&kind=waveform", {
      Range: "bytes=0-9",
      "If-Range": '"old"',
    });
    expect(stale.res.status).toBe(200);
    expect(stale.body.length).toBe(entry.sizeBytes);
    const fresh = await bytesOf("path=r.wav&kind=waveform", {
      Range: "bytes=0-9",
      "If-Range": etag,
    });
    expect(fresh.res.status).toBe(206);
    const held = await bytesOf("path=r.wav&kind=waveform", { "If-None-Match": etag });
    expect(held.res.status).toBe(304);
  });

  it("a signed address reads without a key; tampered or expired it is 404", async () => {
    const entry = await ready();
    const url = new URL(entry.url);
    const open = await t.app.request(url.pathname, { headers: { Range: "bytes=0-3" } });
    expect(open.status).toBe(206);
    const tampered = url.pathname.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    const bad = await t.app.request(tampered);
    expect(bad.status).toBe(404);
    expect((await bad.json()).error.details.reason).toBe("unknown_media");
    clock.advance(3 * 3_600_000 + 1);
    expect((await t.app.request(url.pathname)).status).toBe(404);
  });

  it("listRenders shows the workspace's renders with path, status and times", async () => {
    await ready();
    await write("broken.mp3", "nope");
    await render({ paths: ["broken.mp3"] });
    const queued = await t.call("GET", t.w("/files/renders?active=1"));
    expect(queued.json.items).toMatchObject([
      { path: "broken.mp3", kind: "waveform", status: "queued" },
    ]);
    await t.deps.jobs.runDue();
    const all = (await t.call("GET", t.w("/files/renders?limit=10"))).json.items;
    expect(all.map((r: { path: string; status: string }) => [r.path, r.status])).toEqual([
      ["broken.mp3", "failed"],
      ["r.wav", "ready"],
    ]);
    expect(all[0].error).toBeTruthy();
  });
});

describe("by content", () => {
  const renders = () => t.deps.db.prepare("SELECT count(*) FROM renditions").pluck().get();
  const jobs = () =>
    t.deps.db.prepare("SELECT count(*) FROM jobs WHERE kind LIKE 'media.%'").pluck().get();

  it("a copy, a rename and a duplicate reuse the renditions: nothing renders again", async () => {
    await write("in/a.mp4", clip);
    await render({ paths: ["in/a.mp4"] });
    await t.deps.jobs.runDue();
    const [rows, ran] = [renders(), jobs()];
    const copy = await t.call("POST", t.w("/files/operations"), {
      body: { kind: "copy", paths: ["in/a.mp4"], destination: "" },
    });
    expect(copy.status).toBe(201);
    await t.deps.jobs.runDue();
    await write("dup.mp4", clip);
    await t.call("PATCH", t.w("/files"), { body: { path: "dup.mp4", newName: "dup2.mp4" } });
    expect((await render({ paths: ["a.mp4", "dup2.mp4"] })).json.queued).toBe(0);
    expect([renders(), jobs()]).toEqual([rows, ran]);
    const s = await status("path=a.mp4");
    expect(s.proxies.every((p: { status: string }) => p.status === "ready")).toBe(true);
  });

  it("a copy of a video not rendered yet queues it", async () => {
    await write("raw.mp4", clip);
    await t.call("POST", t.w("/files/operations"), {
      body: { kind: "copy", paths: ["raw.mp4"], destination: "", onConflict: "keepBoth" },
    });
    await t.deps.jobs.runDue();
    expect(byKind(await status("path=raw (2).mp4"), "proxy720").status).toBe("ready");
  });

  it("protected content has no proxies", async () => {
    const file = await write("secret.mp4", clip);
    const entry = t.deps.files.get(t.workspaceId, file.path);
    setProtection(t.deps.db, entry.id, JSON.stringify({ alg: "aes-256-ctr" }));
    expect(await status("path=secret.mp4")).toMatchObject({ proxies: [], protected: true });
    expect((await render({ paths: ["secret.mp4"] })).json.queued).toBe(0);
    const read = await t.call("GET", t.w("/files/proxy?path=secret.mp4&kind=proxy720"));
    expect(read.status).toBe(400);
    expect(read.json.error.details.issues[0].code).toBe("content_protected");
  });
});

it("renditions of content no longer stored are swept with their files", async () => {
  const app = await createTestApp();
  try {
    await app.deps.files.writeFile(app.workspaceId, "gone.wav", await makeTone(1));
    await app.call("POST", app.w("/files/proxies"), { body: { paths: ["gone.wav"] } });
    await app.deps.jobs.runDue();
    const cache = path.join(app.dir, "cache", "renditions");
    const files = () =>
      fs.readdirSync(cache, { recursive: true }).filter((f) => String(f).endsWith(".dat"));
    expect(files()).toHaveLength(1);
    await app.call("DELETE", app.w("/files"), { body: { paths: ["gone.wav"], permanent: true } });
    await purgeExpired(app.deps);
    await sweepRenditions(app.deps);
    expect(files()).toEqual([]);
    expect(app.deps.db.prepare("SELECT count(*) FROM renditions").pluck().get()).toBe(0);
    expect(app.deps.db.prepare("SELECT count(*) FROM media_probes").pluck().get()).toBe(0);
  } finally {
    await app.close();
  }
});

it("scopes: a read key reads the status but cannot queue", async () => {
  const app = await createTestApp();
  try {
    const key = app.keyWith(["files:read"]);
    await app.deps.files.writeFile(app.workspaceId, "x.wav", "x");
    expect((await app.call("GET", app.w("/files/proxies?path=x.wav"), { key })).status).toBe(200);
    const post = await app.call("POST", app.w("/files/proxies"), {
      key,
      body: { paths: ["x.wav"] },
    });
    expect(post.status).toBe(403);
  } finally {
    await app.close();
  }
});
