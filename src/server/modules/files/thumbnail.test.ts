import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

/* Thumbnails for the console's preview and a share's recipients: cached by content, bounded in pixels. */

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const cacheDir = () => path.join(t.dir, "cache", "thumbnails");
const cachedFiles = () =>
  fs.existsSync(cacheDir())
    ? fs
        .readdirSync(cacheDir(), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".jpg"))
    : [];

/** A shared image's thumbnail, asked for anonymously through the share's plain link. */
async function shareThumbnail(filePath: string) {
  const created = await t.call("POST", t.w("/shares"), { body: { paths: [filePath] } });
  expect(created.status).toBe(201);
  const token = created.json.url.slice(created.json.url.lastIndexOf("/") + 1);
  return () =>
    t.app.request(`/v1/public/shares/${token}/thumbnail?path=${encodeURIComponent(filePath)}`);
}

const crc32 = (buf: Buffer) => {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
};
/** A valid black 1-bit PNG of the given size, small on disk however many pixels it holds. */
function blackPng(width: number, height: number) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // 1 bit, greyscale
  const raw = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("thumbnails", () => {
  it("renders an image once and answers later requests from the cache under DATA_DIR", async () => {
    const png = await sharp({
      create: { width: 800, height: 400, channels: 3, background: "#336699" },
    })
      .png()
      .toBuffer();
    await t.deps.files.writeFile(t.workspaceId, "Stills/a.png", png);
    const thumb = await shareThumbnail("Stills/a.png");
    const first = await thumb();
    expect(first.status).toBe(200);
    const jpeg = Buffer.from(await first.arrayBuffer());
    expect((await sharp(jpeg).metadata()).width).toBe(320);
    const [entry] = cachedFiles();
    expect(cachedFiles()).toHaveLength(1);
    expect(fs.readFileSync(path.join(cacheDir(), entry!)).equals(jpeg)).toBe(true);
    // The next request reads the cached JPEG rather than decoding the image again.
    const marked = await sharp({ create: { width: 2, height: 2, channels: 3, background: "red" } })
      .jpeg()
      .toBuffer();
    fs.writeFileSync(path.join(cacheDir(), entry!), marked);
    expect(Buffer.from(await (await thumb()).arrayBuffer()).equals(marked)).toBe(true);
    // The console's preview of the same content (another path, same bytes) shares the entry.
    await t.deps.files.writeFile(t.workspaceId, "Stills/copy.png", png);
    const preview = await t.app.request(t.w("/files/preview?path=Stills%2Fcopy.png"), {
      headers: { Authorization: `Bearer ${t.adminKey}` },
    });
    expect(Buffer.from(await preview.arrayBuffer()).equals(marked)).toBe(true);
    expect(cachedFiles()).toHaveLength(1);
  });

  it("refuses an image of more pixels than it decodes, clearly", async () => {
    await t.deps.files.writeFile(t.workspaceId, "Stills/huge.png", blackPng(15_000, 15_000));
    const res = await (await shareThumbnail("Stills/huge.png"))();
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.details.issues[0]).toMatchObject({
      code: "no_preview",
      message: expect.stringContaining("15000 × 15000 pixels"),
    });
    const preview = await t.call("GET", t.w("/files/preview?path=Stills%2Fhuge.png"));
    expect([preview.status, preview.json.error.details.issues[0].code]).toEqual([
      400,
      "no_preview",
    ]);
    expect(cachedFiles()).toHaveLength(0);
  });
});
