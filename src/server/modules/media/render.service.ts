import type { MediaKind, ProxyKind, RenderProxiesBody } from "@/contract/media";
import { MAX_PROXY_PAGE } from "@/contract/media-rules";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { CONTACT_SHEET_SETTINGS } from "@/server/media/contact-sheet";
import { PAGE_SETTINGS } from "@/server/media/pdf-pages";
import { isMedia, pdfPageCount } from "@/server/media/probe";
import { PROXY720_SETTINGS } from "@/server/media/proxy720";
import { WAVEFORM_SETTINGS } from "@/server/media/waveform";
import { protectionOf } from "@/server/modules/files/files.repository";
import {
  type ProbeRow,
  probeOf,
  queueRendition,
  saveProbe,
  versionSource,
} from "./renditions.repository";

/** Fast renders (waveform, contact sheet, PDF pages) share the runner's slots. */
export const RENDER_JOB = "media.render";
/** Video transcodes run in a pool of their own, `MEDIA_TRANSCODES` at a time. */
export const TRANSCODE_JOB = "media.transcode";

export const SETTINGS: Record<ProxyKind, string> = {
  proxy720: PROXY720_SETTINGS,
  waveform: WAVEFORM_SETTINGS,
  contact_sheet: CONTACT_SHEET_SETTINGS,
  page: PAGE_SETTINGS,
};

/** What queueing needs: a standalone data node has these too. */
type QueueDeps = Pick<AppDeps, "db" | "clock" | "jobs">;

/** The content a file or a kept version holds, as renditions see it. */
export interface MediaSource {
  sha256: string;
  mime: string | null;
  path: string;
  /** Content protection: stored encrypted, so nothing can render it (docs/api-decisions.md, Media). */
  protected: boolean;
}

/** A live file (`path`) or a kept version (`version`), or 404 / `not_a_file`. */
export function sourceOf(
  deps: AppDeps,
  workspaceId: string,
  at: { path: string; version?: string | undefined },
  field = "query.path",
): MediaSource {
  if (at.version) {
    const v = versionSource(deps.db, workspaceId, at.version);
    if (!v) throw notFound("Version", { versionId: at.version });
    return { sha256: v.sha256, mime: v.mime, path: v.path, protected: v.protection !== null };
  }
  if (at.path === "") throw validationFailed(field, "path or version is required", "required");
  const entry = deps.files.get(workspaceId, at.path);
  if (!entry.is_file || !entry.sha256)
    throw validationFailed(
      field,
      `"${at.path}" is a folder; only files have proxies`,
      "not_a_file",
    );
  return {
    sha256: entry.sha256,
    mime: entry.mime,
    path: entry.path,
    protected: protectionOf(deps.db, entry.id) !== null,
  };
}

/** The media kind by type (or a video container's extension), until a probe says otherwise. */
export function mediaKindOf(mime: string | null, path: string): MediaKind | null {
  if (mime === "application/pdf") return "pdf";
  if (mime?.startsWith("image/")) return "image";
  if (mime?.startsWith("audio/")) return "audio";
  if (mime?.startsWith("video/") || isMedia(path)) return "video";
  return null;
}

/**
 * The renditions a content gets: video the proxy, a waveform (when it has sound, or before the
 * probe has said) and a contact sheet; audio a waveform; a PDF its pages 0 to 50 (page 0 alone
 * before the probe counted them); images and everything else none (their thumbnail is row 12).
 */
export function planOf(media: MediaKind | null, probe: ProbeRow | undefined) {
  const plan: { kind: ProxyKind; page: number }[] = [];
  if (media === "video") {
    plan.push({ kind: "proxy720", page: 0 });
    if (!probe || probe.has_audio) plan.push({ kind: "waveform", page: 0 });
    plan.push({ kind: "contact_sheet", page: 0 });
  } else if (media === "audio") plan.push({ kind: "waveform", page: 0 });
  else if (media === "pdf") {
    const pages = Math.min(probe?.page_count ?? 1, MAX_PROXY_PAGE + 1);
    for (let page = 0; page < pages; page++) plan.push({ kind: "page", page });
  }
  return plan;
}

/** The media kind a content has: the probe's word once it has one, else its type's. */
export const mediaOf = (source: MediaSource, probe: ProbeRow | undefined) =>
  probe ? probe.media : mediaKindOf(source.mime, source.path);

/**
 * Queues the renditions a content still lacks, in the caller's transaction when it holds one
 * (the runner's `enqueue` joins it): one job per content and kind, so a PDF's pages render in
 * one pdftoppm run. `retry` queues failed ones again. Returns how many were newly queued; a
 * content whose renditions exist (a copy, a move, a duplicate upload) queues nothing.
 */
export function queueRenditions(
  deps: QueueDeps,
  workspaceId: string,
  source: MediaSource,
  retry: boolean,
): number {
  if (source.protected) return 0;
  const probe = probeOf(deps.db, source.sha256);
  const now = deps.clock.now();
  let queued = 0;
  const kinds = new Set<ProxyKind>();
  deps.db.transaction(() => {
    for (const { kind, page } of planOf(mediaOf(source, probe), probe)) {
      const key = { sha256: source.sha256, kind, page, settings: SETTINGS[kind] };
      if (!queueRendition(deps.db, key, { workspaceId, path: source.path }, now, retry)) continue;
      queued++;
      kinds.add(kind);
    }
    for (const kind of kinds) {
      const job = kind === "proxy720" ? TRANSCODE_JOB : RENDER_JOB;
      deps.jobs.enqueue(
        job,
        { sha256: source.sha256, kind },
        {
          uniqueKey: `${job}:${source.sha256}:${kind}`,
        },
      );
    }
  })();
  return queued;
}

/**
 * Video and audio are queued when they land (a transfer's or portal's commit, a copy), in the
 * landing's transaction; the rest renders on demand (renderProxies).
 */
export function queueLanded(
  deps: QueueDeps,
  workspaceId: string,
  source: Omit<MediaSource, "protected"> & { protected: boolean | (() => boolean) },
) {
  if (!queuesOnLanding(source.mime, source.path)) return;
  const isProtected =
    typeof source.protected === "function" ? source.protected() : source.protected;
  queueRenditions(deps, workspaceId, { ...source, protected: isProtected }, false);
}

/** Whether a file of this type is rendered as it lands (video and audio). */
export function queuesOnLanding(mime: string | null, path: string) {
  const media = mediaKindOf(mime, path);
  return media === "video" || media === "audio";
}

/** A PDF's pages are counted before its renditions are queued (pdfinfo, outside a transaction). */
export async function countPages(deps: AppDeps, source: MediaSource) {
  if (source.protected || probeOf(deps.db, source.sha256)) return;
  if (mediaKindOf(source.mime, source.path) !== "pdf") return;
  const pages = await pdfPageCount(await deps.files.blobs.localPath(source.sha256));
  saveProbe(deps.db, {
    sha256: source.sha256,
    // Still a PDF when poppler cannot read it: its page 0 then fails with poppler's reason.
    media: "pdf",
    fps: null,
    duration_ms: null,
    width: null,
    height: null,
    has_audio: 0,
    page_count: pages,
    probed_at: deps.clock.now(),
  });
}

/** Row 14: queues what each file or kept version lacks, failed renders again. */
export async function renderProxies(deps: AppDeps, caller: Caller, body: RenderProxiesBody) {
  const sources = [
    ...(body.paths ?? []).map((path, i) =>
      sourceOf(deps, caller.workspaceId, { path }, `paths.${i}`),
    ),
    ...(body.versions ?? []).map((version) =>
      sourceOf(deps, caller.workspaceId, { path: "", version }),
    ),
  ];
  for (const source of sources) await countPages(deps, source);
  let queued = 0;
  for (const source of sources) queued += queueRenditions(deps, caller.workspaceId, source, true);
  return { queued };
}
