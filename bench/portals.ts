/**
 * npm run bench:portals: upload portals (issue 12) against the real service over HTTP on a
 * temporary data dir, in headless Chromium.
 * - The review queue with 5,000 uploads across 50 portals: from navigation to its first rows
 *   painted (a fresh load of the console, and a move to it from another page of the console).
 * - A decision: from the key press (`a`, `p`) to the row showing it, and to the service's answer.
 * - The portal page: from navigation to a usable form, and the JavaScript it loads.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import zlib from "node:zlib";
import type { Page } from "playwright-core";
import { newId } from "../src/server/lib/ids";
import { insertUpload, markReceived } from "../src/server/modules/portals/portals.repository";
import { figureLine, formatMs, percentile } from "./stats";
import { ensureBuilt, launchChromium, startInProcess } from "./support";

// BENCH_PORTAL_UPLOADS and BENCH_ROUNDS make a quick run smaller (the targets are for the full one).
const PORTALS = 50;
const UPLOADS = Number(process.env.BENCH_PORTAL_UPLOADS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const QUEUE_LOADS = ROUNDS;
const DECISIONS = ROUNDS * 4;
const PAGE_LOADS = ROUNDS;

/** The console's review queue (src/web/features/portals): its address and its rows. */
const QUEUE = {
  url: "/portals?view=review",
  firstRow: "[role=feed] article",
  activeRow: "[role=feed] article[tabindex='0']",
  tab: "Review queue",
};

const ms = (n: number, decimals = 0) => formatMs(n, decimals);
const line = figureLine(58);

ensureBuilt();
const { service, dataDir } = await startInProcess("portals", { WORKSPACE_NAME: "Bench Post" });
try {
  if (!service.boot.created) throw new Error("expected a fresh data dir");
  const workspaceId = service.boot.workspace.id;
  const { adminKey } = service.boot;
  const headers = { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" };
  const base = `${service.url}/v1/workspaces/${workspaceId}`;

  const portals: { id: string; slug: string; url: string; title: string }[] = [];
  for (let i = 0; i < PORTALS; i++) {
    const res = await fetch(`${base}/portals`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        title: `Intake ${String(i + 1).padStart(2, "0")}`,
        message: "Send the day's rushes here.",
        targetPath: `Incoming/Intake ${i + 1}`,
        requireEmail: true,
        fields: [
          { key: "shoot_day", label: "Shoot day", required: true },
          { key: "camera", label: "Camera", required: false },
        ],
        rules: { allowedExtensions: ["mov", "mp4", "mxf", "wav"], maxFiles: 200 },
        spec: { name: "ProRes in MOV", containers: ["mov"], videoCodecs: ["prores"] },
      }),
    });
    if (res.status !== 201) throw new Error(`create portal: ${res.status} ${await res.text()}`);
    portals.push(await res.json());
  }

  // The uploads as they stand once landed: rows written the way the portal page's complete
  // writes them (no bytes: the queue reads rows, not files).
  const { db } = service.deps;
  const seedStart = performance.now();
  db.transaction(() => {
    const now = Date.now();
    for (let i = 0; i < UPLOADS; i++) {
      const portal = portals[i % PORTALS]!;
      const id = newId(now - (UPLOADS - i) * 1000);
      const folder = `Incoming/${portal.title} ${i}`;
      insertUpload(db, {
        id,
        portal_id: portal.id,
        workspace_id: workspaceId,
        transfer_id: null,
        sender_email: `sender${i}@example.com`,
        sender_name: `Sender ${i}`,
        message: i % 3 === 0 ? "Day one, cameras A and B." : null,
        fields: JSON.stringify({ shoot_day: String((i % 30) + 1), camera: i % 2 ? "A" : "B" }),
        folder_path: folder,
        file_count: 3,
        bytes_total: 3 * 2_000_000_000,
        spec_status: "checking",
        created_at: now - (UPLOADS - i) * 1000,
      });
      markReceived(db, id, {
        fileCount: 3,
        bytes: 3 * 2_000_000_000,
        // Each file as an upload's record keeps it since issue 20: both SHA-256s and the probe.
        filesShown: JSON.stringify(
          ["A001_C001.mov", "A001_C002.mov", "sound.wav"].map((n) => {
            const sha256 = createHash("sha256").update(`${folder}/${n}`).digest("hex");
            const wav = n.endsWith(".wav");
            return {
              path: `${folder}/${n}`,
              size: 2_000_000_000,
              mime: wav ? "audio/wav" : "video/quicktime",
              senderSha256: sha256,
              sha256,
              media: {
                container: wav ? "wav" : "mov",
                videoCodecs: wav ? [] : ["prores"],
                audioCodecs: ["pcm_s24le"],
                durationMs: 754_000,
                width: wav ? null : 3840,
                height: wav ? null : 2160,
              },
            };
          }),
        ),
        specStatus: "checking",
        now: now - (UPLOADS - i) * 1000 + 500,
      });
    }
  })();
  console.log(
    `${UPLOADS.toLocaleString("en")} uploads across ${PORTALS} portals (seeded in ${ms(performance.now() - seedStart)})`,
  );

  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    // tsx compiles this file with esbuild's keepNames, which wraps the named functions inside
    // page.evaluate() callbacks in a `__name` helper the page does not have.
    await context.addInitScript("globalThis.__name = (f) => f");
    const page = await context.newPage();
    await page.goto(`${service.url}/#key=${adminKey}`);
    await page.waitForURL(/\/files/);

    const queue = await measureQueue(page, service.url);
    line(
      `review queue, fresh load to first rows, p50 of ${QUEUE_LOADS}`,
      ms(queue.loadP50),
      "<= 300 ms",
      queue.loadP50 <= 300,
    );
    line("  ... p95", ms(queue.loadP95), "", null);
    line(
      `review queue, from the Portals tab to first rows, p50 of ${QUEUE_LOADS}`,
      ms(queue.navP50),
      "<= 300 ms",
      queue.navP50 <= 300,
    );
    line(
      `decision, key to row updated, p95 of ${DECISIONS}`,
      ms(queue.rowP95, 1),
      "<= 100 ms",
      queue.rowP95 <= 100,
    );
    line(
      `decision, key to the service's answer, p95 of ${DECISIONS}`,
      ms(queue.answerP95, 1),
      "<= 100 ms",
      queue.answerP95 <= 100,
    );
    await context.close();

    const portalPage = await measurePortalPage(browser, service.url, portals[0]!.slug);
    line(
      `portal page to a usable form, p50 of ${PAGE_LOADS}`,
      ms(portalPage.p50),
      "<= 1 s",
      portalPage.p50 <= 1000,
    );
    line("  ... p95", ms(portalPage.p95), "", null);
    line(
      "  ... its JavaScript to the form (gzip -9)",
      `${portalPage.formKb.toFixed(1)} KB`,
      "<= 60 KB",
      portalPage.formKb <= 60,
    );
    line(
      "  ... all its JavaScript, once a file is chosen",
      `${portalPage.allKb.toFixed(1)} KB`,
      "<= 60 KB",
      portalPage.allKb <= 60,
    );
  } finally {
    await browser.close();
  }
} finally {
  await service.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** Resolves (in the page's clock) when `selector` first matches: set up before the action. */
function whenShown(page: Page, selector: string) {
  return page.evaluate(
    (selector) =>
      new Promise<number>((resolve) => {
        const done = () => {
          if (!document.querySelector(selector)) return false;
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now())));
          return true;
        };
        if (done()) return;
        const observer = new MutationObserver(() => {
          if (done()) observer.disconnect();
        });
        observer.observe(document.body, { childList: true, subtree: true, attributes: true });
      }),
    selector,
  );
}

async function measureQueue(page: Page, origin: string) {
  const loads: number[] = [];
  const navs: number[] = [];
  // One warm-up round first (route code, the service's statements), as a person's second visit.
  for (let i = 0; i < QUEUE_LOADS + 1; i++) {
    // A fresh load: from navigation start (the page's time origin) to the first rows painted.
    await page.goto(`${origin}${QUEUE.url}`, { waitUntil: "commit" });
    const at = await whenShown(page, QUEUE.firstRow);
    if (i > 0) loads.push(at);
    // Within the console: from the click on the Review queue tab of the portals list.
    await page.goto(`${origin}/portals`);
    const tab = page.getByRole("tab", { name: new RegExp(QUEUE.tab) });
    await tab.waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { __clickedAt: Promise<number> };
      w.__clickedAt = new Promise((resolve) =>
        document.addEventListener("pointerdown", (e) => resolve(e.timeStamp), {
          capture: true,
          once: true,
        }),
      );
    });
    const shown = whenShown(page, QUEUE.firstRow);
    await tab.click();
    const clickedAt = await page.evaluate(
      () => (window as unknown as { __clickedAt: Promise<number> }).__clickedAt,
    );
    if (i > 0) navs.push((await shown) - clickedAt);
  }

  // Decisions on the active row, alternating hold (`p`: the row stays in the awaiting filter,
  // its status changes) and approve (`a`: the row leaves, the next takes its place). Each is
  // timed from the key press to the row's change and to the end of the service's answer.
  await page.goto(`${origin}${QUEUE.url}`);
  await page.locator(QUEUE.activeRow).waitFor();
  const rowTimes: number[] = [];
  const answerTimes: number[] = [];
  for (let i = 0; i < DECISIONS + 2; i++) {
    await page.evaluate((activeRow) => {
      const w = window as unknown as { __decision: Promise<{ row: number; answer: number }> };
      const row = document.querySelector(activeRow)!;
      const before = row.textContent;
      w.__decision = new Promise((resolve) => {
        let pressed = 0;
        let rowAt = 0;
        let answerAt = 0;
        const finish = () => {
          if (pressed && rowAt && answerAt)
            resolve({ row: rowAt - pressed, answer: answerAt - pressed });
        };
        document.addEventListener("keydown", (e) => (pressed = e.timeStamp), {
          capture: true,
          once: true,
        });
        const changed = new MutationObserver(() => {
          const now = document.querySelector(activeRow);
          if (now === row && row.textContent === before) return;
          changed.disconnect();
          rowAt = performance.now();
          finish();
        });
        changed.observe(document.body, { childList: true, subtree: true, characterData: true });
        const answers = new PerformanceObserver((list) => {
          const review = list.getEntries().find((e) => e.name.endsWith("/review"));
          if (!review) return;
          answers.disconnect();
          answerAt = (review as PerformanceResourceTiming).responseEnd;
          finish();
        });
        answers.observe({ type: "resource" });
      });
    }, QUEUE.activeRow);
    await page.keyboard.press(i % 2 === 0 ? "p" : "a");
    const t = await page.evaluate(
      () =>
        (window as unknown as { __decision: Promise<{ row: number; answer: number }> }).__decision,
    );
    if (i >= 2) {
      rowTimes.push(t.row);
      answerTimes.push(t.answer);
    }
  }
  return {
    loadP50: percentile(loads, 50),
    loadP95: percentile(loads, 95),
    navP50: percentile(navs, 50),
    rowP95: percentile(rowTimes, 95),
    answerP95: percentile(answerTimes, 95),
  };
}

async function measurePortalPage(
  browser: Awaited<ReturnType<typeof launchChromium>>,
  origin: string,
  slug: string,
) {
  const times: number[] = [];
  let formKb = 0;
  let allKb = 0;
  for (let i = 0; i < PAGE_LOADS + 1; i++) {
    const context = await browser.newContext();
    await context.addInitScript("globalThis.__name = (f) => f");
    const page = await context.newPage();
    const scripts: Promise<number>[] = [];
    page.on("response", (res) => {
      if (new URL(res.url()).pathname.endsWith(".js"))
        // A script still arriving when the context closes (after the last count) is not
        // counted; unhandled, its rejection ended the whole run.
        scripts.push(
          res.body().then(
            (b) => zlib.gzipSync(b, { level: 9 }).length,
            () => 0,
          ),
        );
    });
    await page.goto(`${origin}/p/${slug}`, { waitUntil: "commit" });
    const at = await whenShown(page, "button[id$='-choose']");
    if (i > 0) times.push(at);
    formKb = (await Promise.all(scripts)).reduce((a, b) => a + b, 0) / 1024;
    // Choosing a file brings the uploader (tus-js-client, hash-wasm) in.
    await page.getByLabel("Choose files").setInputFiles({
      name: "A001_C001.mov",
      mimeType: "video/quicktime",
      buffer: Buffer.from("bench"),
    });
    await page.waitForLoadState("networkidle");
    allKb = (await Promise.all(scripts)).reduce((a, b) => a + b, 0) / 1024;
    await context.close();
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), formKb, allKb };
}
