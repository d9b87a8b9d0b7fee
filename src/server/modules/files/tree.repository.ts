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

/** A folder's live files whose names match a GLOB pattern, by name (the frames of a sequence). */
export const filesMatching = (db: Db, folderId: number, glob: string) =>
  stmt<[number, string], EntryRow>(
    db,
    `SELECT ${ENTRY_COLUMNS} FROM entries INDEXED BY entries_by_name
     WHERE parent_id = ? AND is_file = 1 AND trash_id IS NULL AND name GLOB ? ORDER BY sort_key`,
  ).all(folderId, glob);

/**
 * A copy of `src` under `parentId` at `path`: the same content (a reference to the same blob,
 * which the caller counts), the same child counts (the caller copies the children too) and
 * the given dates and version count. The parent's counts are the caller's to update.
 */
export function insertCopy(
  db: Db,
  src: EntryRow,
  parentId: number,
  name: string,
  path: string,
  c: { createdAt: number; modifiedAt: number; versionCount: number },
): number {
  const { lastInsertRowid } = stmt(
    db,
    `INSERT INTO entries (workspace_id, parent_id, name, sort_key, path, is_file, size, mime, sha256,
       folder_count, file_count, version_count, created_at, modified_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
  );
  return Number(lastInsertRowid);
}

/** Gives a file's kept versions to another entry (a moved file keeps its history). */
export const moveVersions = (db: Db, fromEntryId: number, toEntryId: number) =>
  stmt(db, "UPDATE file_versions SET entry_id = ? WHERE entry_id = ?").run(toEntryId, fromEntryId);
