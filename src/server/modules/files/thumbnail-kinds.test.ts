import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFile } from "@/server/testing/files-client";
import { flatImage, makeClip, makePdf, makeTone } from "@/server/testing/media";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { thumbnailRenderCount } from "./thumbnail";

/* Row 12 for every kind the service draws, the caching that keys on content, and its bounds. */

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

function preview(query: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.request(`${t.w("/files/preview")}?${new URLSearchParams(query)}`, {
    headers: { Authorization: `Bearer ${t.adminKey}`, ...headers },
  });
}

async function picture(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("image/jpeg");
  const bytes = Buffer.from(await res.arrayBuffer());
  const { width, height, format } = await sharp(bytes).metadata();
  const { channels } = await sharp(bytes).stats();
  const mean = channels.slice(0, 3).reduce((s, c) => s + c.mean, 0) / 3;
  return { width, height, format, mean };
}

const sha256Of = (path: string) => t.deps.files.get(t.workspaceId, path).sha256!;
const versionsOf = (path: string) => t.deps.files.versions(t.deps.files.get(t.workspaceId, path));

async function noPreview(res: Response) {
  expect(res.status).toBe(400);
  return (await res.json()).error.details.issues[0];
}

describe("thumbnails of every kind", () => {
  it("draws a video's frame, a PDF's first page and an audio file's waveform as JPEG", async () => {
    await writeFile(
      t,
      "Edit/clip.mp4",
      await makeClip({ size: "160x90", seconds: 1, audio: false }),
    );
    await writeFile(t, "Docs/brief.pdf", await makePdf(2));
    await writeFile(t, "Sound/tone.wav", await makeTone(1));
    const video = await picture(await preview({ path: "Edit/clip.mp4" }));
    expect(video).toMatchObject({ width: 160, height: 90, format: "jpeg" });
    const pdf = await picture(await preview({ path: "Docs/brief.pdf" }));
    // An A6 page (portrait), mostly white paper.
    expect(pdf).toMatchObject({ width: 228, height: 320 });
    expect(pdf.mean).toBeGreaterThan(200);
    const wave = await picture(await preview({ path: "Sound/tone.wav" }));
    // A light wave on a dark ground.
    expect(wave).toMatchObject({ width: 320, height: 180 });
    expect(wave.mean).toBeLessThan(160);
  });

  it("says why a broken video has none, and does not decode it again", async () => {
    await writeFile(t, "Edit/broken.mp4", Buffer.from("not a video at all ".repeat(100)));
    const before = thumbnailRenderCount();
    expect(await noPreview(await preview({ path: "Edit/broken.mp4" }))).toMatchObject({
      code: "no_preview",
      field: "query.path",
      message: expect.stringContaining('"Edit/broken.mp4" has no thumbnail'),
    });
    expect(await noPreview(await preview({ path: "Edit/broken.mp4" }))).toMatchObject({
      code: "no_preview",
    });
    expect(thumbnailRenderCount() - before).toBe(1);
    await writeFile(t, "notes.txt", "hello");
    expect((await noPreview(await preview({ path: "notes.txt" }))).code).toBe("no_preview");
  });

  it("draws a kept version with `version`, and 404s a version of another file", async () => {
    await writeFile(
      t,
      "Edit/cut.mp4",
      await makeClip({ pattern: "smptebars", seconds: 1, audio: false }),
    );
    const first = await preview({ path: "Edit/cut.mp4" });
    await writeFile(
      t,
      "Edit/cut.mp4",
      await makeClip({ pattern: "testsrc", seconds: 1, audio: false }),
    );
    const [kept] = versionsOf("Edit/cut.mp4");
    const live = await preview({ path: "Edit/cut.mp4" });
    const old = await preview({ path: "Edit/cut.mp4", version: kept!.id });
    expect((await picture(old)).format).toBe("jpeg");
    expect(old.headers.get("ETag")).toBe(first.headers.get("ETag"));
    expect(live.headers.get("ETag")).not.toBe(first.headers.get("ETag"));
    await writeFile(t, "other.mp4", await makeClip({ seconds: 1, audio: false }));
    const res = await preview({ path: "other.mp4", version: kept!.id });
    expect([res.status, (await res.json()).error.code]).toEqual([404, "not_found"]);
  });
});

describe("rendered once per content", () => {
  it("renders nothing again for a copy, a move, a rename, a restored version or the same bytes", async () => {
    await writeFile(t, "A/still.png", await flatImage(640, 360));
    await writeFile(
      t,
      "A/clip.mp4",
      await makeClip({ pattern: "smptebars", seconds: 1, audio: false }),
    );
    await writeFile(
      t,
      "A/clip.mp4",
      await makeClip({ pattern: "testsrc", seconds: 1, audio: false }),
    );
    const [kept] = versionsOf("A/clip.mp4");
    for (const query of [
      { path: "A/still.png" },
      { path: "A/clip.mp4" },
      { path: "A/clip.mp4", version: kept!.id },
    ] as Record<string, string>[])
      await picture(await preview(query));
    for (const folder of ["B", "C"]) t.deps.files.createFolder(t.workspaceId, folder);
    const before = thumbnailRenderCount();

    const copy = await t.call("POST", t.w("/files/operations"), {
      body: { kind: "copy", paths: ["A/still.png", "A/clip.mp4"], destination: "B" },
    });
    expect(copy.status).toBe(201);
    await t.deps.jobs.runDue();
    await picture(await preview({ path: "B/still.png" }));
    await picture(await preview({ path: "B/clip.mp4" }));
    const move = await t.call("POST", t.w("/files/operations"), {
      body: { kind: "move", paths: ["B/still.png"], destination: "C" },
    });
    expect(move.status).toBe(201);
    await t.deps.jobs.runDue();
    await picture(await preview({ path: "C/still.png" }));
    t.deps.files.rename(t.workspaceId, "C/still.png", "renamed.png");
    await picture(await preview({ path: "C/renamed.png" }));
    await writeFile(t, "D/same.png", await flatImage(640, 360));
    await picture(await preview({ path: "D/same.png" }));
    const restored = await t.call("POST", t.w(`/files/versions/${kept!.id}/restore`));
    expect(restored.status).toBe(200);
    await picture(await preview({ path: "A/clip.mp4" }));

    expect(thumbnailRenderCount() - before).toBe(0);
  });
});

describe("caching keyed by content", () => {
  it("answers with a validator, 304 for it, and a year's caching when `v` names the content", async () => {
    await writeFile(t, "a.png", await flatImage(64, 64));
    await writeFile(t, "b.png", await flatImage(64, 64));
    const plain = await preview({ path: "a.png" });
    await picture(plain);
    const etag = plain.headers.get("ETag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(plain.headers.get("Cache-Control")).toBe("private, max-age=60");
    // The same content at another path has the same validator.
    expect((await preview({ path: "b.png" })).headers.get("ETag")).toBe(etag);

    const v = sha256Of("a.png").slice(0, 16);
    const named = await preview({ path: "a.png", v });
    expect(named.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable");
    expect(named.headers.get("ETag")).toBe(etag);
    const stale = await preview({ path: "a.png", v: "0123456789abcdef" });
    expect(stale.headers.get("Cache-Control")).toBe("private, max-age=60");

    const before = thumbnailRenderCount();
    const held = await preview({ path: "a.png" }, { "If-None-Match": `"other", ${etag}` });
    expect(held.status).toBe(304);
    expect(held.headers.get("ETag")).toBe(etag);
    expect(await held.text()).toBe("");
    expect(thumbnailRenderCount()).toBe(before);
    await writeFile(t, "a.png", await flatImage(64, 64, "#ff0000"));
    const changed = await preview({ path: "a.png" }, { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect((await preview({ path: "a.png", v: "zz" })).status).toBe(400);
  });
});
