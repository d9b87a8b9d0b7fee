import type { FileEntry } from "@/contract/files";
import { joinPath, nameSortKey as sortKey } from "@/contract/rules";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { toIso } from "@/server/lib/clock";

// The path rules are shared with the console; the service's modules take them from here.
export { baseName, joinPath, nameSortKey as sortKey, parentOf } from "@/contract/rules";

export interface EntryRow {
  id: number;
  workspace_id: string;
  parent_id: number | null;
  name: string;
  sort_key: string;
  path: string;
  is_file: 0 | 1;
  size: number;
  mime: string | null;
  sha256: string | null;
  folder_count: number;
  file_count: number;
  version_count: number;
  revision: number;
  trash_id: string | null;
  created_at: number;
  modified_at: number;
}

export interface FileContentRef {
  size: number;
  mime: string | null;
  sha256: string;
}

export const ENTRY_COLUMNS =
  "id, workspace_id, parent_id, name, sort_key, path, is_file, size, mime, sha256, folder_count, file_count, version_count, revision, trash_id, created_at, modified_at";

/** Bounds of a subtree in the path index: every path that starts with `p/`. */
export const subtreeRange = (p: string): [string, string] =>
  p ? [`${p}/`, `${p}0`] : ["", "\u{10FFFF}"];

export function toFileEntry(r: EntryRow): FileEntry {
  const file = r.is_file === 1;
  return {
    name: r.name,
    path: r.path,
    type: file ? "file" : "folder",
    sizeBytes: file ? r.size : null,
    mimeType: file ? r.mime : null,
    sha256: file ? r.sha256 : null,
    childCount: file ? null : r.folder_count + r.file_count,
    versionCount: r.version_count,
    createdAt: toIso(r.created_at),
    modifiedAt: toIso(r.modified_at),
  };
}

export const byPath = (db: Db, workspaceId: string, p: string) =>
  stmt<[string, string], EntryRow>(
    db,
    `SELECT ${ENTRY_COLUMNS} FROM entries WHERE workspace_id = ? AND path = ? AND trash_id IS NULL`,
  ).get(workspaceId, p);

export const byId = (db: Db, id: number) =>
  stmt<[number], EntryRow>(db, `SELECT ${ENTRY_COLUMNS} FROM entries WHERE id = ?`).get(id);

/** The root folder row, created on first use (workspaces are made before the files area runs). */
export function root(db: Db, workspaceId: string, now: number): EntryRow {
  const existing = byPath(db, workspaceId, "");
  if (existing) return existing;
  stmt(
    db,
    `INSERT INTO entries (workspace_id, parent_id, name, sort_key, path, is_file, created_at, modified_at)
     VALUES (?, NULL, '', '', '', 0, ?, ?) ON CONFLICT DO NOTHING`,
  ).run(workspaceId, now, now);
  return byPath(db, workspaceId, "")!;
}

/**
 * Live files after `after` and before `hi` in path order (a keyset page of a subtree, for the
 * manifest), each with what a manifest lists.
 */
export const filesAfter = (db: Db, workspaceId: string, after: string, hi: string, limit: number) =>
  stmt<
    [string, string, string, number],
    { path: string; size: number; modified_at: number; sha256: string }
  >(
    db,
    `SELECT path, size, modified_at, sha256 FROM entries INDEXED BY entries_live_path
     WHERE workspace_id = ? AND trash_id IS NULL AND path > ? AND path < ? AND is_file = 1
     ORDER BY path LIMIT ?`,
  ).all(workspaceId, after, hi, limit);

/**
 * One row under `parent`, without touching the parent's counts: the caller accounts for its
 * rows (one at a time through `insert`, or a whole batch at once in the bulk seeder).
 */
export function insertRow(
  db: Db,
  parent: EntryRow,
  name: string,
  file: FileContentRef | null,
  createdAt: number,
  modifiedAt: number,
): number {
  const { lastInsertRowid } = stmt(
    db,
    `INSERT INTO entries (workspace_id, parent_id, name, sort_key, path, is_file, size, mime, sha256, created_at, modified_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    parent.workspace_id,
    parent.id,
    name,
    sortKey(name),
    joinPath(parent.path, name),
    file ? 1 : 0,
    file?.size ?? 0,
    file?.mime ?? null,
    file?.sha256 ?? null,
    createdAt,
    modifiedAt,
  );
  return Number(lastInsertRowid);
}

export function insert(
  db: Db,
  parent: EntryRow,
  name: string,
  file: FileContentRef | null,
  now: number,
  times: { createdAt?: number; modifiedAt?: number } = {},
): EntryRow {
  const id = insertRow(db, parent, name, file, times.createdAt ?? now, times.modifiedAt ?? now);
  childrenChanged(db, parent.id, file ? 0 : 1, file ? 1 : 0, now);
  return byId(db, id)!;
}

/**
 * A revision no folder has had before: entry ids are reused after a delete, so a count per
 * folder could give a recreated folder the revision, and so the cached pages, of the one it
 * replaces (see migration 0004). Runs inside the writer's transaction, in any process.
 */
const nextRevision = (db: Db) =>
  stmt<[], number>(db, "UPDATE revision_counter SET value = value + 1 RETURNING value")
    .pluck()
    .get()!;

/**
 * Keeps the folder's exact counts and revision in the transaction that changed its children.
 * The folder's own parent gets a new revision too: its listing shows this folder's count.
 */
export function childrenChanged(
  db: Db,
  folderId: number,
  folders: number,
  files: number,
  now: number,
) {
  const revision = nextRevision(db);
  stmt(
    db,
    `UPDATE entries SET folder_count = folder_count + ?, file_count = file_count + ?,
       revision = ?, modified_at = ? WHERE id = ?`,
  ).run(folders, files, revision, now, folderId);
  stmt(
    db,
    "UPDATE entries SET revision = ? WHERE id = (SELECT parent_id FROM entries WHERE id = ?)",
  ).run(revision, folderId);
}

/** A child changed (new content, date or version count) without changing the counts. */
export const reordered = (db: Db, folderId: number) =>
  stmt(db, "UPDATE entries SET revision = ? WHERE id = ?").run(nextRevision(db), folderId);

/** New live content for a file (written, or a version made live). */
export const setContent = (db: Db, id: number, content: FileContentRef, modifiedAt: number) =>
  stmt(db, "UPDATE entries SET sha256 = ?, size = ?, mime = ?, modified_at = ? WHERE id = ?").run(
    content.sha256,
    content.size,
    content.mime,
    modifiedAt,
    id,
  );

/** The entry's own name and path; a folder's descendants move with `movePrefix`. */
export const rename = (db: Db, id: number, name: string, p: string, mime: string | null) =>
  stmt(db, "UPDATE entries SET name = ?, sort_key = ?, path = ?, mime = ? WHERE id = ?").run(
    name,
    sortKey(name),
    p,
    mime,
    id,
  );

/**
 * Rewrites the path prefix of every live entry below `from` (a folder rename or restore).
 * SQLite counts characters where JS counts UTF-16 units, so the prefix's length is measured
 * in SQL: a name outside the BMP (an emoji) would otherwise cut every path in the wrong place.
 */
export function movePrefix(
  db: Db,
  workspaceId: string,
  from: string,
  to: string,
  trashId: string | null,
) {
  const [lo, hi] = subtreeRange(from);
  if (trashId) {
    stmt(
      db,
      "UPDATE entries SET path = ? || substr(path, length(?) + 1) WHERE trash_id = ? AND path >= ? AND path < ?",
    ).run(to, from, trashId, lo, hi);
  } else {
    stmt(
      db,
      `UPDATE entries SET path = ? || substr(path, length(?) + 1)
       WHERE workspace_id = ? AND trash_id IS NULL AND path >= ? AND path < ?`,
    ).run(to, from, workspaceId, lo, hi);
  }
}

export const addBlobRef = (db: Db, sha256: string, size: number, now: number, delta = 1) =>
  stmt(
    db,
    `INSERT INTO blobs (sha256, size, ref_count, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (sha256) DO UPDATE SET ref_count = ref_count + excluded.ref_count`,
  ).run(sha256, size, delta, now);

export const dropBlobRef = (db: Db, sha256: string) =>
  stmt(db, "UPDATE blobs SET ref_count = ref_count - 1 WHERE sha256 = ?").run(sha256);

/** Releases blobs nobody references; returns their hashes so their files can go too. */
export const deleteUnreferencedBlobs = (db: Db) =>
  stmt<[], string>(db, "DELETE FROM blobs WHERE ref_count <= 0 RETURNING sha256").pluck().all();

/**
 * Live children of a folder after the position (`isFile`, `sortKey`), folders first then files,
 * each by name, leaving out the names in the JSON array `except` (a keyset page for bulk work).
 */
export const childrenAfter = (
  db: Db,
  folderId: number,
  after: { isFile: 0 | 1; sortKey: string },
  except: string,
  limit: number,
) =>
  stmt<[number, number, string, string, number], EntryRow>(
    db,
    `SELECT ${ENTRY_COLUMNS} FROM entries INDEXED BY entries_by_name
     WHERE parent_id = ? AND trash_id IS NULL AND (is_file, sort_key) > (?, ?)
       AND name NOT IN (SELECT value FROM json_each(?))
     ORDER BY is_file, sort_key LIMIT ?`,
  ).all(folderId, after.isFile, after.sortKey, except, limit);

/** How many of the paths (a JSON array) name live entries. */
export const countLive = (db: Db, workspaceId: string, paths: string) =>
  stmt<[string, string], number>(
    db,
    `SELECT count(*) FROM entries
     WHERE workspace_id = ? AND trash_id IS NULL AND path IN (SELECT value FROM json_each(?))`,
  )
    .pluck()
    .get(workspaceId, paths)!;

/**
 * A folder's live files whose sort key starts with `keyPrefix`, through the name index (the
 * candidate frames of a numbered set, for batch rename), read one at a time so a caller can stop.
 */
export const filesByKeyPrefix = (db: Db, folderId: number, keyPrefix: string) =>
  stmt<[number, string, string], EntryRow>(
    db,
    `SELECT ${ENTRY_COLUMNS} FROM entries INDEXED BY entries_by_name
     WHERE parent_id = ? AND is_file = 1 AND trash_id IS NULL AND sort_key >= ? AND sort_key < ?
     ORDER BY sort_key`,
  ).iterate(folderId, keyPrefix, `${keyPrefix}\u{10FFFF}`);

/** How a file's stored bytes are encrypted (content protection, JSON), or null. */
export const protectionOf = (db: Db, id: number) =>
  stmt<[number], string | null>(db, "SELECT protection FROM entries WHERE id = ?")
    .pluck()
    .get(id) ?? null;

export const setProtection = (db: Db, id: number, protection: string | null) =>
  stmt(db, "UPDATE entries SET protection = ? WHERE id = ?").run(protection, id);
