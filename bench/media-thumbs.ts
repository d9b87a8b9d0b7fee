/**
 * npm run bench:media (thumbnails): row 12's speeds, each beside a reference measured in the same
 * run. A 24-megapixel JPEG's thumbnail cold (against sharp alone resizing the same file) and
 * cached (against a small JSON GET); a grid of 200 mixed thumbnails (images, videos, PDFs, audio)
 * visible in headless Chromium on a first and a second visit, under the default rate limit of
 * 600 a minute; and the renders a copy, a move and a version restore cause (counted).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type { CDPSession } from "playwright-core";
import sharp from "sharp";
import { thumbnailRenderCount } from "../src/server/modules/files/thumbnail";
import { makeClip, makePdf, makeTone } from "../src/server/testing/media";
import { ensureBuilt, launchChromium, root, startInProcess } from "./support";

const TILES = 200;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** A figure measured in the same run for comparison, under the one it explains. */
const reference = (what: string, value: number) =>
  console.log(`${`  reference: ${what}`.padEnd(58)} ${ms(value).padStart(12)}`);
const line = (what: string, figure: string, target: string, ok: boolean) =>
  console.log(
    `${what.padEnd(58)} ${figure.padStart(12)}  (target ${target}) ${ok ? "ok" : "MISSED"}`,
  );

ensureBuilt();
const { service, dataDir } = await startInProcess("thumbs", { RATE_LIMIT_PER_MINUTE: "600" });
const { deps, boot } = service;
if (!boot.created) throw new Error("expected a fresh data dir");
const workspaceId = boot.workspace.id;
const base = `${service.url}/v1/workspaces/${workspaceId}`;
/** A key of its own per part, so one part's requests do not spend another's rate limit. */
const newKey = () =>
  (
    JSON.parse(
      execFileSync(
        process.execPath,
        ["--import", "tsx", "src/server/cli/keys.ts", "create", "--scopes", "all", "--json"],
        { cwd: root, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" } },
      ).toString(),
    ) as { key: string }
  ).key;
const write = (p: string, bytes: Buffer) => deps.files.writeFile(workspaceId, p, bytes);

async function timed(url: string, key: string) {
  const start = performance.now();
  const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url} -> ${res.status}`);
  return performance.now() - start;
}
const preview = (p: string) => `${base}/files/preview?path=${encodeURIComponent(p)}`;

/** A 6000 × 4000 photo-like JPEG (noise is what makes decoding cost what a photo's does). */
const photo = () =>
  sharp({
    create: {
      width: 6000,
      height: 4000,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();

async function bigJpeg(key: string) {
  const cold: number[] = [];
  const alone: number[] = [];
  for (let i = 0; i < 3; i++) {
    const bytes = await photo();
    await write(`Photos/big-${i}.jpg`, bytes);
    const file = await deps.files.blobs.localPath(
      deps.files.get(workspaceId, `Photos/big-${i}.jpg`).sha256!,
    );
    const start = performance.now();
    await sharp(file).resize(320, 320, { fit: "inside" }).jpeg({ quality: 80 }).toBuffer();
    alone.push(performance.now() - start);
    cold.push(await timed(preview(`Photos/big-${i}.jpg`), key));
  }
  const cached: number[] = [];
  const json: number[] = [];
  for (let i = 0; i < 40; i++) {
    cached.push(await timed(preview("Photos/big-0.jpg"), key));
    json.push(await timed(`${base}/files?path=Photos&limit=5`, key));
  }
  const [c, k] = [median(cold), median(cached)];
  line("24 MP JPEG thumbnail, cold (median of 3)", ms(c), "≤ 150 ms", c <= 150);
  reference("sharp alone on the same file", median(alone));
  line("24 MP JPEG thumbnail, cached (median of 40)", ms(k), "≤ 5 ms", k <= 5);
  reference("a small JSON GET (files, 5 items)", median(json));
}

/** Renders a copy, a move and a version restore cause, by the service's own count. */
async function rendersAfterCopies(key: string) {
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${p} -> ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ id: string }>;
  };
  await write("Photos/big-0.jpg", await photo()); // the earlier content becomes a version
  await timed(preview("Photos/big-0.jpg"), key);
  deps.files.createFolder(workspaceId, "Copies");
  deps.files.createFolder(workspaceId, "Moved");
  const before = thumbnailRenderCount();
  for (const op of [
    { kind: "copy", paths: ["Photos/big-0.jpg", "Grid/clip-000.mp4"], destination: "Copies" },
    { kind: "move", paths: ["Photos/big-1.jpg", "Grid/doc-000.pdf"], destination: "Moved" },
  ])
    await call("POST", "/files/operations", op);
  await deps.jobs.runDue();
  const [version] = deps.files.versions(deps.files.get(workspaceId, "Photos/big-0.jpg"));
  await call("POST", `/files/versions/${version!.id}/restore`);
  for (const p of [
    "Copies/big-0.jpg",
    "Copies/clip-000.mp4",
    "Moved/big-1.jpg",
    "Moved/doc-000.pdf",
  ])
    await timed(preview(p), key);
  await timed(preview("Photos/big-0.jpg"), key);
  const renders = thumbnailRenderCount() - before;
  line("renders for a copy, a move and a version restore", String(renders), "0", renders === 0);
}

async function gridContent() {
  for (let i = 0; i < TILES / 4; i++) {
    const n = String(i).padStart(3, "0");
    const hue = (i * 7) % 360;
    await write(
      `Grid/img-${n}.png`,
      await sharp({
        create: { width: 640, height: 360, channels: 3, background: `hsl(${hue},60%,50%)` },
      })
        .png()
        .toBuffer(),
    );
    await write(
      `Grid/clip-${n}.mp4`,
      await makeClip({ size: `${160 + 2 * i}x90`, seconds: 1, audio: false }),
    );
    await write(`Grid/doc-${n}.pdf`, await makePdf(1, `Document ${i}`));
    await write(`Grid/tone-${n}.wav`, await makeTone(1, 200 + 10 * i));
  }
}

/** Where a visit's thumbnail requests spend their time, from Chromium's own network timings. */
interface Timing {
  sent: number;
  wait?: number;
  done?: number;
}

async function networkCounts(cdp: CDPSession) {
  await cdp.send("Network.enable");
  const counts = { network: 0, cache: 0, throttled: 0 };
  const timings = new Map<string, Timing>();
  let navigated = 0;
  cdp.on("Network.requestWillBeSent", (e) => {
    if (e.type === "Document") navigated = e.timestamp;
    if (e.request.url.includes("/files/preview")) timings.set(e.requestId, { sent: e.timestamp });
  });
  cdp.on("Network.responseReceived", (e) => {
    if (e.response.status === 429) counts.throttled++;
    if (!e.response.url.includes("/files/preview")) return;
    if (e.response.fromDiskCache) counts.cache++;
    else counts.network++;
    const t = e.response.timing;
    const timing = timings.get(e.requestId);
    // The service's share: from the request sent to its answer's headers.
    if (t && timing && !e.response.fromDiskCache) timing.wait = t.receiveHeadersEnd - t.sendEnd;
  });
  cdp.on("Network.loadingFinished", (e) => {
    const timing = timings.get(e.requestId);
    if (timing) timing.done = e.timestamp;
  });
  /** The visit's requests: when the first left and the last ended, and the service's wait. */
  const spread = () => {
    const all = [...timings.values()];
    timings.clear();
    if (all.length === 0) return "no thumbnail requests";
    const first = Math.min(...all.map((t) => t.sent));
    const last = Math.max(...all.map((t) => t.done ?? t.sent));
    const sentLast = Math.max(...all.map((t) => t.sent));
    const waits = all.flatMap((t) => (t.wait === undefined ? [] : [t.wait]));
    const waitFigures = waits.length
      ? `, service answers median ${ms(median(waits))}, max ${ms(Math.max(...waits))}`
      : "";
    const after = ms((first - navigated) * 1000);
    return `the first ${after} after the page's own request; ${all.length} sent over ${ms((sentLast - first) * 1000)}, all done ${ms((last - first) * 1000)} after the first${waitFigures}`;
  };
  return { counts, spread };
}

async function grid(key: string) {
  await gridContent();
  // The service's own first renders, a couple at a time, as the first person to open it causes.
  const start = performance.now();
  const paths = [
    ["img", "png"],
    ["clip", "mp4"],
    ["doc", "pdf"],
    ["tone", "wav"],
  ].flatMap(([name, ext]) =>
    Array.from(
      { length: TILES / 4 },
      (_, i) => `Grid/${name}-${String(i).padStart(3, "0")}.${ext}`,
    ),
  );
  const warmKey = newKey();
  for (let i = 0; i < paths.length; i += 6)
    await Promise.all(paths.slice(i, i + 6).map((p) => timed(preview(p), warmKey)));
  console.log(
    `${"  (first renders of the 200, 2 at a time, not a target)".padEnd(58)} ${ms(performance.now() - start).padStart(12)}`,
  );

  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 3000 } });
    const { counts, spread } = await networkCounts(await page.context().newCDPSession(page));
    await page.goto(`${service.url}/#key=${key}`);
    await page.getByRole("grid").waitFor();
    await page.getByRole("button", { name: "Grid view" }).click();
    /** Until every tile shows its picture; and until the grid (the page and its listing). */
    const visit = async () => {
      spread(); // requests before the visit are not its own
      const t0 = performance.now();
      await page.goto(`${service.url}/files?path=Grid`);
      await page
        .locator("[data-thumb]")
        .nth(TILES - 1)
        .waitFor();
      const listed = performance.now() - t0;
      await page.waitForFunction(
        (n) =>
          [...document.querySelectorAll<HTMLImageElement>("[data-thumb] img")].filter(
            (img) => img.complete && img.naturalWidth > 0,
          ).length >= n,
        TILES,
        { polling: 16, timeout: 60_000 },
      );
      return { listed, all: performance.now() - t0, requests: spread() };
    };
    const first = await visit();
    const firstCounts = { ...counts };
    await page.goto(`${service.url}/trash`);
    const second = await visit();
    for (const [name, v] of [
      ["first visit", first],
      ["second visit", second],
    ] as const) {
      const pictures = v.all - v.listed;
      line(
        `grid of ${TILES} thumbnails visible once listed, ${name}`,
        ms(pictures),
        "≤ 1000 ms",
        pictures <= 1000,
      );
      reference(`the page and its ${TILES} tiles listed (icons) before that`, v.listed);
      console.log(`    (${v.requests})`);
    }
    line(
      "  thumbnail requests over the network, first visit",
      String(firstCounts.network),
      `${TILES}`,
      firstCounts.network === TILES,
    );
    line(
      "  over the network on the second visit (from the cache)",
      `${counts.network - firstCounts.network} (${counts.cache} cached)`,
      "0",
      counts.network === firstCounts.network,
    );
    line(
      "  responses of 429 (limit 600 a minute)",
      String(counts.throttled),
      "0",
      counts.throttled === 0,
    );
  } finally {
    await browser.close();
  }
}

try {
  await bigJpeg(newKey());
  await grid(newKey());
  await rendersAfterCopies(newKey());
} finally {
  await service.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
