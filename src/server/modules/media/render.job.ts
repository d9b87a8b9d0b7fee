import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { ProxyKind } from "@/contract/media-rules";
import type { AppDeps } from "@/server/deps";
import { ensurePrivateDir } from "@/server/lib/private-files";
import { renderContactSheet } from "@/server/media/contact-sheet";
import { renderPages } from "@/server/media/pdf-pages";
import { frameRateOf, probe, videoStreamOf } from "@/server/media/probe";
import { renderProxy720 } from "@/server/media/proxy720";
import { RenderError, runTool } from "@/server/media/tool";
import { renderWaveform } from "@/server/media/waveform";
import type { JobKind, JobRecord } from "@/server/workers/job-runner";
import { planOf, SETTINGS } from "./render.service";
import { renditionFile, renditionStore } from "./rendition-store";
import {
  dropRenditions,
  markFailed,
  markReady,
  markRendering,
  type ProbeRow,
  probeOf,
  type RenditionRow,
  saveProbe,
  setProgress,
  unfinished,
} from "./renditions.repository";

/** Progress is written at most this often: a row per second is plenty for a status poll. */
const PROGRESS_EVERY_MS = 1000;

/**
 * What ffprobe reads of an audio or video content, kept by its SHA-256; null (with ffprobe's
 * reason thrown) when it is not media.
 */
async function probeMedia(deps: AppDeps, sha256: string, source: string): Promise<ProbeRow> {
  const known = probeOf(deps.db, sha256);
  if (known) return known;
  const read = await probe(source);
  if (!read) {
    // ffprobe's own words say why (`Invalid data found when processing input`).
    await runTool("ffprobe", ["-v", "error", source], { input: source });
    throw new RenderError("ffprobe could not read it as media");
  }
  const video = videoStreamOf(read);
  const hasAudio = read.streams?.some((s) => s.codec_type === "audio") ?? false;
  const seconds = Number(read.format?.duration);
  const row: ProbeRow = {
    sha256,
    media: video ? "video" : hasAudio ? "audio" : null,
    fps: frameRateOf(video),
    duration_ms: Number.isFinite(seconds) ? Math.round(seconds * 1000) : null,
    width: video?.width ?? null,
    height: video?.height ?? null,
    has_audio: hasAudio ? 1 : 0,
    page_count: null,
    probed_at: deps.clock.now(),
  };
  saveProbe(deps.db, row);
  return row;
}

/**
 * The rendered `file` kept as the rendition's bytes (moved into place, or into the bucket): they
 * are whole before anyone can read them.
 */
async function place(deps: AppDeps, row: RenditionRow, file: string) {
  // A tool that exits cleanly having written nothing would fail the same way on every retry.
  if (!fs.existsSync(file)) throw new RenderError("the renderer ended without writing anything");
  fs.chmodSync(file, 0o600);
  return renditionStore(deps).keep(row, file);
}

/** A temp name beside the final file; stale ones of this rendition (a killed run's) go first. */
function partialFor(final: string) {
  const dir = path.dirname(final);
  ensurePrivateDir(dir);
  const stem = `${path.basename(final)}.`;
  for (const name of fs.readdirSync(dir))
    if (name.startsWith(stem) && name.endsWith(".partial")) fs.rmSync(path.join(dir, name));
  return `${final}.${randomBytes(6).toString("hex")}.partial`;
}

/** Renders one rendition row (not pages) and marks it ready. */
async function renderOne(deps: AppDeps, row: RenditionRow, source: string, media: ProbeRow) {
  const final = renditionFile(deps.config.dataDir, row);
  const partial = partialFor(final);
  const now = () => deps.clock.now();
  try {
    if (row.kind === "proxy720") {
      let last = 0;
      const made = await renderProxy720(source, partial, media.duration_ms, (fraction) => {
        if (performance.now() - last < PROGRESS_EVERY_MS) return;
        last = performance.now();
        setProgress(deps.db, row.id, fraction, now());
      });
      markReady(
        deps.db,
        row.id,
        { ...made, sizeBytes: await place(deps, row, partial), layout: null },
        now(),
      );
    } else if (row.kind === "waveform") {
      await renderWaveform(source, partial, media.duration_ms);
      const sizeBytes = await place(deps, row, partial);
      const r = { width: null, height: null, durationMs: media.duration_ms, layout: null };
      markReady(deps.db, row.id, { ...r, sizeBytes }, now());
    } else {
      const sheet = await renderContactSheet(source, partial, {
        durationMs: media.duration_ms,
        width: media.width,
        height: media.height,
      });
      markReady(
        deps.db,
        row.id,
        {
          width: sheet.width,
          height: sheet.height,
          durationMs: media.duration_ms,
          sizeBytes: await place(deps, row, partial),
          layout: JSON.stringify(sheet.layout),
        },
        now(),
      );
    }
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

/** A PDF's pages in one pdftoppm run into a temp folder, then each into place. */
async function renderPageRows(deps: AppDeps, rows: RenditionRow[], source: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-pages-"));
  try {
    const pages = await renderPages(source, dir, rows[0]!.page, rows.at(-1)!.page);
    for (const row of rows) {
      const page = pages.get(row.page);
      if (!page) {
        markFailed(deps.db, [row.id], "pdftoppm wrote no image of this page", deps.clock.now());
        continue;
      }
      const final = renditionFile(deps.config.dataDir, row);
      ensurePrivateDir(path.dirname(final));
      fs.copyFileSync(page.file, `${final}.partial`);
      const sizeBytes = await place(deps, row, `${final}.partial`);
      const r = { width: page.width, height: page.height, durationMs: null, layout: null };
      markReady(deps.db, row.id, { ...r, sizeBytes }, deps.clock.now());
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Renders what is unfinished of one content's kind (queued, or `rendering` by a run that died:
 * the runner's lease expired and it is claimed again, so it starts over and ends once). A
 * refusal by ffmpeg or poppler is the rendition's `failed` with their reason, not a retry; any
 * other fault is retried by the runner, and the last attempt's fault is stored as the reason.
 */
async function runRender(deps: AppDeps, payload: unknown, job: JobRecord) {
  const { sha256, kind } = payload as { sha256: string; kind: ProxyKind };
  // Rows queued again while this run held the job's unique key (a retry of a failed page)
  // found no new job to queue: this run takes them too before it ends.
  const seen = new Set<string>();
  for (;;) {
    const rows = unfinished(deps.db, sha256, kind, SETTINGS[kind]).filter((r) => !seen.has(r.id));
    if (rows.length === 0) return;
    for (const r of rows) seen.add(r.id);
    await renderRows(deps, job, sha256, kind, rows);
  }
}

async function renderRows(
  deps: AppDeps,
  job: JobRecord,
  sha256: string,
  kind: ProxyKind,
  rows: RenditionRow[],
) {
  const ids = rows.map((r) => r.id);
  try {
    // A blob gone from the bucket reads as ENOENT, as one gone from the disk does.
    const source = await deps.files.blobs.localPath(sha256).catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") return "";
      throw err;
    });
    if (!source || !fs.existsSync(source)) throw new RenderError("the content is no longer stored");
    markRendering(deps.db, ids, deps.clock.now());
    if (kind === "page") return await renderPageRows(deps, rows, source);
    const media = await probeMedia(deps, sha256, source);
    const planned = new Set(planOf(media.media, media).map((p) => p.kind));
    // Not this content's (a `.mp4` of sound alone has no proxy; a silent video no waveform).
    if (!planned.has(kind)) return void dropRenditions(deps.db, ids);
    for (const row of rows) await renderOne(deps, row, source, media);
  } catch (err) {
    if (!(err instanceof RenderError) && job.attempts < job.maxAttempts) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    deps.log.warn("media render failed", { sha256, kind, reason });
    markFailed(deps.db, ids, reason, deps.clock.now());
  }
}

export function renderJob(deps: AppDeps, concurrency?: number): JobKind {
  return {
    maxAttempts: 3,
    ...(concurrency !== undefined ? { concurrency } : {}),
    run: (payload, job) => runRender(deps, payload, job),
  };
}
