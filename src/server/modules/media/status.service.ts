import type { ProxyEntry, ProxyStatus } from "@/contract/media";
import type { ProxyKind } from "@/contract/media-rules";
import type { AppDeps } from "@/server/deps";
import { issueAccessToken, validAccessToken } from "@/server/lib/access-tokens";
import { notFound } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { type MediaSource, mediaOf, planOf, SETTINGS } from "./render.service";
import { probeOf, type RenditionRow, renditionById, renditionsOf } from "./renditions.repository";

/*
 * Signed media addresses (docs/api-decisions.md, Media): `/v1/public/media/{id}.{expiresAt}.{HMAC}`
 * reads one ready rendition without a key, so `<video src>` and `<img src>` work. The HMAC is an
 * access token (lib/access-tokens) over the rendition's id, with its own key file: deleting it
 * ends every address. Expiry is 2 to 3 hours away, on the hour, so the address a status poll
 * returns stays the same for an hour and a playing video is not reloaded by a poll.
 */
const MEDIA_KEY = { file: "media-url.key" };
const HOUR_MS = 3_600_000;
export const MEDIA_URL_PREFIX = "/v1/public/media/";
const subjectOf = (renditionId: string) => `media:${renditionId}`;

function signedUrl(deps: AppDeps, origin: string, renditionId: string) {
  const expiresAt = (Math.floor(deps.clock.now() / HOUR_MS) + 3) * HOUR_MS;
  const key = { dataDir: deps.config.dataDir, ...MEDIA_KEY };
  const token = issueAccessToken(key, subjectOf(renditionId), expiresAt);
  const base = deps.config.publicUrl ?? origin;
  return { url: `${base}${MEDIA_URL_PREFIX}${renditionId}.${token}`, expiresAt };
}

/** The ready rendition a signed address names, or 404 for anything else (tampered, expired). */
export function renditionOfToken(deps: AppDeps, token: string): RenditionRow {
  const [id = "", ...rest] = token.split(".");
  const key = { dataDir: deps.config.dataDir, ...MEDIA_KEY };
  const row = validAccessToken(key, subjectOf(id), rest.join("."), deps.clock.now())
    ? renditionById(deps.db, id)
    : undefined;
  if (row?.status !== "ready") throw notFound("Media", { reason: "unknown_media" });
  return row;
}

function entryOf(
  deps: AppDeps,
  origin: string,
  want: { kind: ProxyKind; page: number },
  row: RenditionRow | undefined,
): ProxyEntry {
  const ready = row?.status === "ready";
  const signed = ready ? signedUrl(deps, origin, row.id) : null;
  return {
    kind: want.kind,
    page: want.page,
    status: row?.status ?? "pending",
    width: row?.width ?? null,
    height: row?.height ?? null,
    durationMs: row?.duration_ms ?? null,
    error: row?.status === "failed" ? row.error : null,
    sizeBytes: ready ? row.size_bytes : null,
    progress: row?.status === "rendering" ? (row.progress ?? 0) : null,
    layout: ready && row.layout ? JSON.parse(row.layout) : null,
    url: signed?.url ?? null,
    urlExpiresAt: signed ? toIso(signed.expiresAt) : null,
  };
}

/**
 * The proxy status of a content (row 13's answer), with signed addresses for the ready ones:
 * what other modules call for a file they show (a share's recipient page) with the blob they
 * hold. Protected content lists no proxies.
 */
export function proxyStatusOf(deps: AppDeps, source: MediaSource, origin: string): ProxyStatus {
  const probe = probeOf(deps.db, source.sha256);
  const media = mediaOf(source, probe);
  const rows = new Map<string, RenditionRow>();
  for (const row of renditionsOf(deps.db, source.sha256))
    if (row.settings === SETTINGS[row.kind] && !rows.has(`${row.kind}:${row.page}`))
      rows.set(`${row.kind}:${row.page}`, row);
  const proxies = source.protected
    ? []
    : planOf(media, probe).map((want) =>
        entryOf(deps, origin, want, rows.get(`${want.kind}:${want.page}`)),
      );
  return {
    media,
    fps: probe?.fps ?? null,
    durationMs: probe?.duration_ms ?? null,
    proxies,
    sha256: source.sha256,
    pageCount: probe?.page_count ?? null,
    protected: source.protected,
  };
}

/** The ready rendition of a content, kind and page at the current settings, if any. */
export function readyRendition(deps: AppDeps, sha256: string, kind: ProxyKind, page: number) {
  return renditionsOf(deps.db, sha256).find(
    (r) =>
      r.kind === kind && r.page === page && r.settings === SETTINGS[kind] && r.status === "ready",
  );
}
