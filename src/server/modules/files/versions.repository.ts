import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { newId } from "@/server/lib/ids";
import type { EntryRow } from "./files.repository";

export interface VersionRow {
  id: string;
  entry_id: number;
  sha256: string;
  size: number;
  mime: string | null;
  created_at: number;
}

export const VERSION_COLUMNS = "id, entry_id, sha256, size, mime, created_at";

/**
 * A new version row of the entry's live content, in the order `file_versions (id, workspace_id,
 * entry_id, sha256, size, mime, created_at)`: its `created_at` is when that content was written.
 */
export const currentAsVersion = (entry: EntryRow) => [
  newId(),
  entry.workspace_id,
  entry.id,
  entry.sha256,
  entry.size,
  entry.mime,
  entry.modified_at,
];

export const insertVersion = (db: Db, entry: EntryRow) =>
  stmt(
    db,
    `INSERT INTO file_versions (id, workspace_id, entry_id, sha256, size, mime, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(...currentAsVersion(entry));

/** The entry's versions after the newest `keep`, oldest last. */
export const versionsBeyond = (db: Db, entryId: number, keep: number) =>
  stmt<[number, number], { id: string; sha256: string }>(
    db,
    `SELECT id, sha256 FROM file_versions WHERE entry_id = ?
     ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?`,
  ).all(entryId, keep);

export const deleteVersion = (db: Db, id: string) =>
  stmt(db, "DELETE FROM file_versions WHERE id = ?").run(id);

export const recountVersions = (db: Db, entryId: number) =>
  stmt(
    db,
    "UPDATE entries SET version_count = (SELECT count(*) FROM file_versions WHERE entry_id = ?) WHERE id = ?",
  ).run(entryId, entryId);

export const versionsOf = (db: Db, entryId: number) =>
  stmt<[number], VersionRow>(
    db,
    `SELECT ${VERSION_COLUMNS} FROM file_versions WHERE entry_id = ? ORDER BY created_at DESC, id DESC`,
  ).all(entryId);

export const versionById = (db: Db, workspaceId: string, id: string) =>
  stmt<[string, string], VersionRow>(
    db,
    `SELECT ${VERSION_COLUMNS} FROM file_versions WHERE id = ? AND workspace_id = ?`,
  ).get(id, workspaceId);

/** Hands every kept version of one entry to another (a file replaced by a batch rename). */
export const moveVersions = (db: Db, fromEntryId: number, toEntryId: number) =>
  stmt(db, "UPDATE file_versions SET entry_id = ? WHERE entry_id = ?").run(toEntryId, fromEntryId);

/** The version just kept of an encrypted file keeps how its bytes are encrypted. */
export const protectNewestVersion = (db: Db, entryId: number, protection: string) =>
  stmt(
    db,
    `UPDATE file_versions SET protection = ? WHERE id = (
       SELECT id FROM file_versions WHERE entry_id = ? ORDER BY rowid DESC LIMIT 1)`,
  ).run(protection, entryId);

export const versionProtection = (db: Db, id: string) =>
  stmt<[string], string | null>(db, "SELECT protection FROM file_versions WHERE id = ?")
    .pluck()
    .get(id) ?? null;
