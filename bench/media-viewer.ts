/**
 * npm run bench:media (viewer): the console viewer's first frame after opening and its seeks on
 * the scrub bar, in headless Chromium, each beside a bare `<video>` on the same signed proxy
 * address measured in the same run. A 1080p clip (60 s; BENCH_MEDIA_SECONDS for a shorter one)
 * made with ffmpeg is written into the workspace and its 720p proxy rendered by the service's
 * own job runner first, so the viewer plays the proxy, not the original.
 *
 * A frame counts when the browser hands it to the compositor (`requestVideoFrameCallback`): the
 * viewer opens paused, so its first frame is the one it shows before anyone presses Play. Each
 * run is in a fresh browser context (an empty cache), viewer and reference alternating.
 */
import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import type { ProxyStatus } from "@/contract/media";
import { makeClip } from "../src/server/testing/media";
import { figureLine, formatMs, percentile } from "./stats";
import { ensureBuilt, launchChromium, startInProcess } from "./support";

const SECONDS = Number(process.env.BENCH_MEDIA_SECONDS ?? 60);
const RUNS = Number(process.env.BENCH_VIEWER_RUNS ?? 5);
/** Where the seeks land, as fractions of the bar (and of the clip). */
const SPOTS = [0.2, 0.8, 0.5, 0.35, 0.95, 0.05, 0.65];
const FOLDER = "Viewer bench";
const NAME = "clip-1080p.mp4";
const line = figureLine(58);
const median = (xs: number[]) => percentile(xs, 50);
const worst = (xs: number[]) => Math.max(...xs);

/** A figure's median and worst against its target, the reference's under it. */
function report(what: string, ours: number[], ref: number[], target: number) {
  line(`${what}, median`, formatMs(median(ours)), `≤ ${target} ms`, median(ours) <= target);
  line("  worst", formatMs(worst(ours)), `≤ ${target} ms`, worst(ours) <= target);
  line("  reference: bare <video>, median", formatMs(median(ref)), "", null);
  line("  reference: bare <video>, worst", formatMs(worst(ref)), "", null);
}

/*
 * In-page probes, installed before any script of the page runs: the moment the opening Enter or
 * the seeking pointer goes down, and the first frame composited after it.
 */
const PROBES = `
  window.__bench = { open: 0, frame: 0, seekDown: 0, seeked: 0, seekFrame: 0, src: "" };
  addEventListener("keydown", (e) => { if (e.key === "Enter") __bench.open = performance.now(); }, true);
  addEventListener("pointerdown", () => { __bench.seekDown = performance.now(); }, true);
  new MutationObserver(() => {
    const v = document.querySelector("video");
    if (!v || v.__probed) return;
    v.__probed = true;
    const onFrame = () => {
      if (!__bench.frame) { __bench.frame = performance.now(); __bench.src = v.currentSrc; }
      else if (__bench.seeked && !__bench.seekFrame) __bench.seekFrame = performance.now();
      v.requestVideoFrameCallback(onFrame);
    };
    v.requestVideoFrameCallback(onFrame);
    // A paused video's first frame may never reach rVFC in headless Chromium: loadeddata (the
    // first frame decoded and shown) stands in, and says so.
    v.addEventListener("loadeddata", () => {
      if (!__bench.frame) { __bench.frame = performance.now(); __bench.src = v.currentSrc; __bench.byLoadeddata = 1; }
    });
    v.addEventListener("seeked", () => { if (!__bench.seeked) __bench.seeked = performance.now(); });
  }).observe(document, { childList: true, subtree: true });
`;
type Probe = {
  open: number;
  frame: number;
  seekDown: number;
  seeked: number;
  seekFrame: number;
  src: string;
  byLoadeddata?: number;
};
const probe = (page: Page) =>
  page.evaluate(() => (window as unknown as { __bench: Probe }).__bench);
const resetSeek = (page: Page) =>
  page.evaluate(() => {
    const b = (window as unknown as { __bench: Probe }).__bench;
    Object.assign(b, { seekDown: 0, seeked: 0, seekFrame: 0 });
  });
const waitFor = (page: Page, field: keyof Probe) =>
  page.waitForFunction(
    (f) => !!(window as unknown as { __bench: Record<string, number> }).__bench[f],
    field,
    { polling: 16, timeout: 60_000 },
  );

ensureBuilt();
const { service, dataDir } = await startInProcess("viewer");
const { deps, boot } = service;
if (!boot.created) throw new Error("expected a fresh data dir");
const key = boot.adminKey;
const base = `${service.url}/v1/workspaces/${boot.workspace.id}`;

async function api<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p} -> ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
}

/** The clip in the workspace and its proxy720 rendered; returns the proxy's signed address. */
async function proxiedClip() {
  const started = performance.now();
  const bytes = await makeClip({ size: "1920x1080", seconds: SECONDS, rate: 25 });
  deps.files.createFolder(boot.workspace.id, FOLDER);
  await deps.files.writeFile(boot.workspace.id, `${FOLDER}/${NAME}`, bytes);
  const made = performance.now() - started;
  const query = `/files/proxies?path=${encodeURIComponent(`${FOLDER}/${NAME}`)}`;
  const proxy = async () =>
    (await api<ProxyStatus>("GET", query)).proxies.find((p) => p.kind === "proxy720");
  if ((await proxy())?.status === "pending")
    await api("POST", "/files/proxies", { paths: [`${FOLDER}/${NAME}`] });
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const p = await proxy();
    if (p?.status === "ready" && p.url) {
      console.log(
        `A ${SECONDS} s 1080p25 clip (${(bytes.length / 1e6).toFixed(1)} MB) made in ${formatMs(made)}; its proxy720 (${((p.sizeBytes ?? 0) / 1e6).toFixed(1)} MB) ready ${formatMs(performance.now() - started - made)} later`,
      );
      return p.url;
    }
    if (p?.status === "failed") throw new Error(`proxy720 failed: ${p.error}`);
    if (Date.now() > deadline) throw new Error(`proxy720 not ready: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Seeks to each of SPOTS by `seek`: ms to `seeked`, and to the next frame when rVFC saw one. */
async function seekAll(page: Page, seek: (at: number) => Promise<unknown>) {
  const seeks: { seeked: number; frame: number }[] = [];
  for (const at of SPOTS) {
    await resetSeek(page);
    await seek(at);
    await waitFor(page, "seeked");
    const b = await probe(page);
    seeks.push({
      seeked: b.seeked - b.seekDown,
      frame: b.seekFrame ? b.seekFrame - b.seekDown : NaN,
    });
  }
  return seeks;
}

/** A fresh context (an empty cache), signed in, on the clip's folder, the probes installed. */
async function freshPage(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(PROBES);
  const page = await context.newPage();
  await page.goto(`${service.url}/#key=${key}`);
  await page.waitForURL(/\/files/);
  await page.goto(`${service.url}/files?path=${encodeURIComponent(FOLDER)}`);
  return page;
}

/** Opens the viewer by Enter on the clip's row: ms to the first frame, and the seeks' ms. */
async function viewerRun(browser: Browser, proxyUrl: string) {
  const page = await freshPage(browser);
  try {
    await page.getByRole("row", { name: new RegExp(NAME.replace(".", "\\.")) }).click();
    await page.keyboard.press("Enter");
    await waitFor(page, "frame");
    const first = await probe(page);
    if (first.src !== proxyUrl) throw new Error(`the viewer played ${first.src}, not the proxy`);
    const bar = page.getByRole("dialog", { name: NAME }).getByTestId("scrub-bar");
    const box = (await bar.boundingBox())!;
    const seeks = await seekAll(page, (at) =>
      page.mouse.click(box.x + box.width * at, box.y + box.height / 2),
    );
    return { first: first.frame - first.open, seeks, byLoadeddata: !!first.byLoadeddata };
  } finally {
    await page.context().close();
  }
}

/** The same on a bare `<video autoplay muted>` on the signed address; seeks set currentTime. */
async function referenceRun(browser: Browser, proxyUrl: string) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(PROBES);
  const page = await context.newPage();
  try {
    await page.goto(`${service.url}/v1/openapi.json`);
    await page.evaluate((src) => {
      (window as unknown as { __bench: Probe }).__bench.open = performance.now();
      const v = Object.assign(document.createElement("video"), { src, muted: true });
      v.autoplay = true;
      document.body.replaceChildren(v);
    }, proxyUrl);
    await waitFor(page, "frame");
    const first = await probe(page);
    await page.evaluate(() => document.querySelector("video")!.pause());
    const seeks = await seekAll(page, (at) =>
      page.evaluate((to) => {
        const v = document.querySelector("video")!;
        (window as unknown as { __bench: Probe }).__bench.seekDown = performance.now();
        v.currentTime = to * v.duration;
      }, at),
    );
    return { first: first.frame - first.open, seeks, byLoadeddata: !!first.byLoadeddata };
  } finally {
    await context.close();
  }
}

let browser: Browser | null = null;
try {
  const proxyUrl = await proxiedClip();
  browser = await launchChromium();
  const ours = {
    first: [] as number[],
    seeked: [] as number[],
    frame: [] as number[],
    byLoadeddata: 0,
  };
  const ref = {
    first: [] as number[],
    seeked: [] as number[],
    frame: [] as number[],
    byLoadeddata: 0,
  };
  for (let i = 0; i < RUNS; i++) {
    for (const [into, run] of [
      [ours, viewerRun],
      [ref, referenceRun],
    ] as const) {
      const r = await run(browser, proxyUrl);
      into.first.push(r.first);
      if (r.byLoadeddata) into.byLoadeddata++;
      into.seeked.push(...r.seeks.map((s) => s.seeked));
      into.frame.push(...r.seeks.map((s) => s.frame));
    }
  }
  console.log(
    `${RUNS} openings and ${RUNS * SPOTS.length} seeks each, a fresh browser context per opening:`,
  );
  console.log(
    `First frames by loadeddata (no rVFC for a paused video): viewer ${ours.byLoadeddata}, reference ${ref.byLoadeddata} of ${RUNS}`,
  );
  report("viewer: Enter to its first frame", ours.first, ref.first, 1000);
  report("viewer: scrub-bar click to seeked", ours.seeked, ref.seeked, 300);
  // A paused video's frames after a seek reach no rVFC in headless Chromium: printed when they do.
  if (![...ours.frame, ...ref.frame].some(Number.isNaN))
    report("viewer: scrub-bar click to the next frame", ours.frame, ref.frame, 300);
} finally {
  await browser?.close();
  await service.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
