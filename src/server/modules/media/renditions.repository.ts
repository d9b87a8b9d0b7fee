import type { MediaKind, ProxyKind, ProxyStatusValue } from "@/contract/media-rules";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { newId } from "@/server/lib/ids";

export interface RenditionRow {
  id: string;
  sha256: string;
  kind: ProxyKind;
  page: number;
  settings: string;
  status: Exclude<ProxyStatusValue, "pending">;
  progress: number | null;
  error: string | null;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  size_bytes: number | null;
  layout: string | null;
  workspace_id: string | null;
  path: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  updated_at: number;
}

export interface ProbeRow {
  sha256: string;
  media: MediaKind | null;
  fps: number | null;
  duration_ms: number | null;
  width: number | null;
  height: number | null;
  has_audio: 0 | 1;
  page_count: number | null;
  probed_at: number;
}

export interface RenditionKey {
  sha256: string;
  kind: ProxyKind;
  page: number;
  settings: string;
}

/**
 * Queues a rendition: a new row, or a failed one queued again when `retry`. False when it was
 * already there (queued, rendering or ready): a copy's content renders nothing again.
 */
export function queueRendition(
  db: Db,
  key: RenditionKey,
  who: { workspaceId: string; path: string },
  now: number,
  retry: boolean,
): boolean {
  const added = stmt(
    db,
    `INSERT INTO renditions (id, sha256, kind, page, settings, status, workspace_id, path, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)
     ON CONFLICT (sha256, kind, page, settings) DO NOTHING`,
  ).run(newId(), key.sha256, key.kind, key.page, key.settings, who.workspaceId, who.path, now, now);
  if (added.changes > 0) return true;
  if (!retry) return false;
  return (
    stmt(
      db,
      `UPDATE renditions SET status = 'queued', progress = NULL, error = NULL, started_at = NULL,
         finished_at = NULL, workspace_id = ?, path = ?, updated_at = ?
       WHERE sha256 = ? AND kind = ? AND page = ? AND settings = ? AND status = 'failed'`,
    ).run(who.workspaceId, who.path, now, key.sha256, key.kind, key.page, key.settings).changes > 0
  );
}

/** The renditions of a content made with the given settings per kind. */
export const renditionsOf = (db: Db, sha256: string) =>
  stmt<[string], RenditionRow>(
    db,
    "SELECT * FROM renditions WHERE sha256 = ? ORDER BY kind, page, created_at DESC",
  ).all(sha256);

export const renditionById = (db: Db, id: string) =>
  stmt<[string], RenditionRow>(db, "SELECT * FROM renditions WHERE id = ?").get(id);

/** The rows one job renders: its content's kind at the current settings, not finished yet. */
export const unfinished = (db: Db, sha256: string, kind: ProxyKind, settings: string) =>
  stmt<[string, string, string], RenditionRow>(
    db,
    `SELECT * FROM renditions WHERE sha256 = ? AND kind = ? AND settings = ?
       AND status IN ('queued', 'rendering') ORDER BY page`,
  ).all(sha256, kind, settings);

export const markRendering = (db: Db, ids: string[], now: number) =>
  stmt(
    db,
    `UPDATE renditions SET status = 'rendering', progress = 0, started_at = ?, updated_at = ?
     WHERE id IN (SELECT value FROM json_each(?))`,
  ).run(now, now, JSON.stringify(ids));

export const setProgress = (db: Db, id: string, progress: number, now: number) =>
  stmt(
    db,
    "UPDATE renditions SET progress = ?, updated_at = ? WHERE id = ? AND status = 'rendering'",
  ).run(progress, now, id);

export interface ReadyRendition {
  width: number | null;
  height: number | null;
  durationMs: number | null;
  sizeBytes: number;
  layout: string | null;
}

export const markReady = (db: Db, id: string, r: ReadyRendition, now: number) =>
  stmt(
    db,
    `UPDATE renditions SET status = 'ready', progress = NULL, error = NULL, width = ?, height = ?,
       duration_ms = ?, size_bytes = ?, layout = ?, finished_at = ?, updated_at = ?
     WHERE id = ?`,
  ).run(r.width, r.height, r.durationMs, r.sizeBytes, r.layout, now, now, id);

export const markFailed = (db: Db, ids: string[], error: string, now: number) =>
  stmt(
    db,
    `UPDATE renditions SET status = 'failed', progress = NULL, error = ?, finished_at = ?, updated_at = ?
     WHERE id IN (SELECT value FROM json_each(?)) AND status != 'ready'`,
  ).run(error.slice(0, 1000), now, now, JSON.stringify(ids));

/** A rendition the content turned out not to need (the waveform of a video without sound). */
export const dropRenditions = (db: Db, ids: string[]) =>
  stmt(db, "DELETE FROM renditions WHERE id IN (SELECT value FROM json_each(?))").run(
    JSON.stringify(ids),
  );

export const probeOf = (db: Db, sha256: string) =>
  stmt<[string], ProbeRow>(db, "SELECT * FROM media_probes WHERE sha256 = ?").get(sha256);

export const saveProbe = (db: Db, p: ProbeRow) =>
  stmt(
    db,
    `INSERT OR REPLACE INTO media_probes (sha256, media, fps, duration_ms, width, height, has_audio, page_count, probed_at)
     VALUES (@sha256, @media, @fps, @duration_ms, @width, @height, @has_audio, @page_count, @probed_at)`,
  ).run(p);

/** The job centre's list: a workspace's renders, newest change first. */
export const recentRenders = (db: Db, workspaceId: string, active: boolean, limit: number) =>
  stmt<[string, number, number], RenditionRow>(
    db,
    `SELECT * FROM renditions WHERE workspace_id = ?
       AND (? = 0 OR status IN ('queued', 'rendering'))
     ORDER BY updated_at DESC, id DESC LIMIT ?`,
  ).all(workspaceId, active ? 1 : 0, limit);

/**
 * A kept version's content (the files module's table, read here because a version is a source
 * of renditions like a live file; its `protection` is not in versions.repository's columns).
 */
export const versionSource = (db: Db, workspaceId: string, id: string) =>
  stmt<
    [string, string],
    { sha256: string; mime: string | null; protection: string | null; path: string }
  >(
    db,
    `SELECT v.sha256, v.mime, v.protection, e.path FROM file_versions v
     JOIN entries e ON e.id = v.entry_id AND e.trash_id IS NULL
     WHERE v.id = ? AND v.workspace_id = ?`,
  ).get(id, workspaceId);

/**
 * Renditions whose content is no longer stored (its last file, version and share reference went
 * and the purge deleted the blob): `blobs` is the files module's table, read for that alone.
 */
export const orphanedRenditions = (db: Db, limit: number) =>
  stmt<[number], Pick<RenditionRow, "id" | "sha256" | "kind" | "page" | "settings">>(
    db,
    `SELECT id, sha256, kind, page, settings FROM renditions r
     WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.sha256 = r.sha256) LIMIT ?`,
  ).all(limit);

export const deleteOrphanedProbes = (db: Db) =>
  stmt(
    db,
    "DELETE FROM media_probes WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.sha256 = media_probes.sha256)",
  ).run();

/** Every ready rendition, with what keys its bytes (`npm run move` takes them to the bucket). */
export const readyRenditions = (db: Db) =>
  stmt<[], Pick<RenditionRow, "id" | "sha256" | "kind" | "page" | "settings" | "size_bytes">>(
    db,
    "SELECT id, sha256, kind, page, settings, size_bytes FROM renditions WHERE status = 'ready' ORDER BY id",
  ).all();

/** Whether a rendition of these parameters is (again) on record: its bytes must stay. */
export const renditionOnRecord = (db: Db, k: RenditionKey) =>
  stmt<[string, string, number, string], number>(
    db,
    "SELECT 1 FROM renditions WHERE sha256 = ? AND kind = ? AND page = ? AND settings = ?",
  )
    .pluck()
    .get(k.sha256, k.kind, k.page, k.settings) !== undefined;
