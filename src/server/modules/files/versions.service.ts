import type { FileVersion } from "@/contract/files";
import type { Db } from "@/server/db/database";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import {
  byId,
  dropBlobRef,
  type EntryRow,
  protectionOf,
  reordered,
  setContent,
  setProtection,
} from "./files.repository";
import {
  deleteVersion,
  insertVersion,
  protectNewestVersion,
  recountVersions,
  type VersionRow,
  versionById,
  versionProtection,
  versionsBeyond,
  versionsOf,
} from "./versions.repository";

/**
 * Keeps the entry's current content as a version (its `createdAt` is when that content was
 * written), then drops the oldest versions beyond `keep`, releasing their bytes.
 */
export function keepCurrentAsVersion(db: Db, entry: EntryRow, keep: number) {
  insertVersion(db, entry);
  for (const v of versionsBeyond(db, entry.id, keep)) {
    deleteVersion(db, v.id);
    dropBlobRef(db, v.sha256);
  }
  recountVersions(db, entry.id);
}

export const toFileVersion = (v: VersionRow, path: string): FileVersion => ({
  id: v.id,
  path,
  sizeBytes: v.size,
  createdAt: toIso(v.created_at),
  sha256: v.sha256,
});

export const listVersions = (db: Db, entry: EntryRow): FileVersion[] =>
  versionsOf(db, entry.id).map((v) => toFileVersion(v, entry.path));

/** A folder asked for its versions (listFileVersions). */
export const notAFile = (path: string) =>
  validationFailed("query.path", `"${path}" is a folder; folders have no versions`, "not_a_file");

export const noVersion = (id: string) => notFound(`Version ${id}`, { versionId: id });

/**
 * Makes a kept version live. The replaced content becomes a version, so nothing is lost and the
 * blob references simply change owner (no count changes). Returns the file's entry.
 */
export function restoreVersion(
  db: Db,
  workspaceId: string,
  versionId: string,
  keep: number,
  now: number,
): EntryRow {
  const version = versionById(db, workspaceId, versionId);
  const entry = version && byId(db, version.entry_id);
  if (!version || !entry || entry.trash_id !== null) throw noVersion(versionId);
  // Each content keeps how its bytes are encrypted (content protection), wherever it goes.
  const restored = versionProtection(db, version.id);
  const replaced = protectionOf(db, entry.id);
  deleteVersion(db, version.id);
  keepCurrentAsVersion(db, entry, keep);
  if (replaced) protectNewestVersion(db, entry.id, replaced);
  if (replaced || restored) setProtection(db, entry.id, restored);
  setContent(
    db,
    entry.id,
    { sha256: version.sha256, size: version.size, mime: version.mime ?? entry.mime },
    now,
  );
  if (entry.parent_id !== null) reordered(db, entry.parent_id);
  return entry;
}
