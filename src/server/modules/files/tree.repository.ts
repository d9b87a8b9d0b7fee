import { nameSortKey as sortKey } from "@/contract/rules";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { ENTRY_COLUMNS, type EntryRow, subtreeRange } from "./files.repository";

/* Whole-subtree reads and writes for server-side move and copy (modules/operations). */

/** Every live entry below `p` (not `p` itself) in path order, so a folder comes before its contents. */
export const subtreeRows = (db: Db, workspaceId: string, p: string) => {
  const [lo, hi] = subtreeRange(p);
  return stmt<[string, string, string], EntryRow>(
    db,
    `SELECT ${ENTRY_COLUMNS} FROM entries INDEXED BY entries_live_path
     WHERE workspace_id = ? AND trash_id IS NULL AND path >= ? AND path < ? ORDER BY path`,
  ).all(workspaceId, lo, hi);
};

/** A page of `subtreeRows`: the entries below `p` after the path `after` (exclusive). */
export const subtreeRowsAfter = (
  db: Db,
  workspaceId: string,
  p: string,
  after: string,
  limit: number,
) => {
  const [lo, hi] = subtreeRange(p);
  return stmt<[string, string, string, string, number], EntryRow>(
    db,
    `SELECT ${ENTRY_COLUMNS} FROM entries INDEXED BY entries_live_path
     WHERE workspace_id = ? AND trash_id IS NULL AND path >= ? AND path > ? AND path < ?
     ORDER BY path LIMIT ?`,
  ).all(workspaceId, lo, after, hi, limit);
};

/** The files below `p` and their bytes. */
export const subtreeTotals = (db: Db, workspaceId: string, p: string) => {
  const [lo, hi] = subtreeRange(p);
  return stmt<[string, string, string], { files: number; bytes: number }>(
    db,
    `SELECT count(*) AS files, coalesce(sum(size), 0) AS bytes FROM entries INDEXED BY entries_live_path
     WHERE workspace_id = ? AND trash_id IS NULL AND path >= ? AND path < ? AND is_file = 1`,
  ).get(workspaceId, lo, hi)!;
};

/** A folder's live children, folders first, each by name. */
export const childrenOf = (db: Db, folderId: number) =>
  stmt<[number], EntryRow>(
    db,
    `SELECT ${ENTRY_COLUMNS} FROM entries INDEXED BY entries_by_name
     WHERE parent_id = ? AND trash_id IS NULL ORDER BY is_file, sort_key`,
  ).all(folderId);

/**
 * A copy of `src` under `parentId` at `path`: the same content (a reference to the same blob,
 * which the caller counts), the same child counts (the caller copies the children too) and
 * the given dates and version count. The parent's counts are the caller's to update. With
 * `hiddenAs`, the row is written out of the tree under that mark, as a trashed row is, until
 * `revealHidden` (a copy built over several transactions).
 */
export function insertCopy(
  db: Db,
  src: EntryRow,
  parentId: number,
  name: string,
  path: string,
  c: { createdAt: number; modifiedAt: number; versionCount: number; hiddenAs?: string },
): number {
  const { lastInsertRowid } = stmt(
    db,
    `INSERT INTO entries (workspace_id, parent_id, name, sort_key, path, is_file, size, mime, sha256,
       folder_count, file_count, version_count, created_at, modified_at, trash_id, protection)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT protection FROM entries WHERE id = ?))`,
  ).run(
    src.workspace_id,
    parentId,
    name,
    sortKey(name),
    path,
    src.is_file,
    src.size,
    src.mime,
    src.sha256,
    src.folder_count,
    src.file_count,
    c.versionCount,
    c.createdAt,
    c.modifiedAt,
    c.hiddenAs ?? null,
    // The copy reads its bytes as the source does (content protection; migration 0007).
    src.id,
  );
  return Number(lastInsertRowid);
}

/**
 * Gives the kept versions of every file below `from` to the file at the same place below `to`
 * (a folder moved in steps; both live).
 */
export function takeVersions(db: Db, workspaceId: string, from: string, to: string) {
  const [lo, hi] = subtreeRange(from);
  stmt(
    db,
    `UPDATE file_versions SET entry_id = n.id
     FROM entries o JOIN entries n
       ON n.workspace_id = o.workspace_id AND n.trash_id IS NULL AND n.path = ? || substr(o.path, length(?) + 1)
     WHERE file_versions.entry_id = o.id AND o.workspace_id = ? AND o.trash_id IS NULL
       AND o.path >= ? AND o.path < ? AND o.is_file = 1`,
  ).run(to, from, workspaceId, lo, hi);
}

/** Gives a file's kept versions to another entry (a moved file keeps its history). */
export const moveVersions = (db: Db, fromEntryId: number, toEntryId: number) =>
  stmt(db, "UPDATE file_versions SET entry_id = ? WHERE entry_id = ?").run(toEntryId, fromEntryId);

/* Rows hidden under a mark (`insertCopy`'s `hiddenAs`): out of every live index, like trashed rows. */

/** The hidden folders under the mark, by path. */
export const hiddenFolders = (db: Db, mark: string) =>
  stmt<[string], { id: number; path: string }>(
    db,
    "SELECT id, path FROM entries WHERE trash_id = ? AND is_file = 0",
  ).all(mark);

export const hiddenTop = (db: Db, mark: string, path: string) =>
  stmt<[string, string], EntryRow>(
    db,
    `SELECT ${ENTRY_COLUMNS} FROM entries WHERE trash_id = ? AND path = ?`,
  ).get(mark, path);

export const hiddenTotals = (db: Db, mark: string) =>
  stmt<[string], { files: number; bytes: number }>(
    db,
    "SELECT count(*) AS files, coalesce(sum(size), 0) AS bytes FROM entries WHERE trash_id = ? AND is_file = 1",
  ).get(mark)!;

/** Puts every row under the mark in the tree (their paths must be free). */
export const revealHidden = (db: Db, mark: string) =>
  stmt(db, "UPDATE entries SET trash_id = NULL WHERE trash_id = ?").run(mark);

/**
 * Deletes up to `limit` rows under the mark and releases their blob references; returns how
 * many it deleted (0: none left).
 */
export function discardHidden(db: Db, mark: string, limit: number): number {
  const rows = stmt<[string, number], { id: number; sha256: string | null }>(
    db,
    "SELECT id, sha256 FROM entries WHERE trash_id = ? LIMIT ?",
  ).all(mark, limit);
  const drop = stmt(db, "UPDATE blobs SET ref_count = ref_count - 1 WHERE sha256 = ?");
  const remove = stmt(db, "DELETE FROM entries WHERE id = ?");
  for (const r of rows) {
    if (r.sha256) drop.run(r.sha256);
    remove.run(r.id);
  }
  return rows.length;
}
