import type { FileVersion } from "@/contract/files";
import { notFound } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { EntryRow, FilesRepository } from "./files.repository";

interface VersionRow {
  id: string;
  entry_id: number;
  sha256: string;
  size: number;
  mime: string | null;
  created_at: number;
}

/**
 * Keeps the entry's current content as a version (its `createdAt` is when that content was
 * written), then drops the oldest versions beyond `keep`, releasing their bytes.
 */
export function keepCurrentAsVersion(repo: FilesRepository, entry: EntryRow, keep: number) {
  repo.sql
    .get(
      `INSERT INTO file_versions (id, workspace_id, entry_id, sha256, size, mime, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      newId(),
      entry.workspace_id,
      entry.id,
      entry.sha256,
      entry.size,
      entry.mime,
      entry.modified_at,
    );
  const excess = repo.sql
    .get<{ id: string; sha256: string }>(
      `SELECT id, sha256 FROM file_versions WHERE entry_id = ?
       ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?`,
    )
    .all(entry.id, keep);
  for (const v of excess) {
    repo.sql.get("DELETE FROM file_versions WHERE id = ?").run(v.id);
    repo.dropBlobRef(v.sha256);
  }
  repo.sql
    .get(
      "UPDATE entries SET version_count = (SELECT count(*) FROM file_versions WHERE entry_id = ?) WHERE id = ?",
    )
    .run(entry.id, entry.id);
}

export function listVersions(repo: FilesRepository, entry: EntryRow): FileVersion[] {
  return repo.sql
    .get<VersionRow>(
      "SELECT id, entry_id, sha256, size, mime, created_at FROM file_versions WHERE entry_id = ? ORDER BY created_at DESC, id DESC",
    )
    .all(entry.id)
    .map((v) => ({
      id: v.id,
      path: entry.path,
      sizeBytes: v.size,
      createdAt: toIso(v.created_at),
      sha256: v.sha256,
    }));
}

/**
 * Makes a kept version live. The replaced content becomes a version, so nothing is lost and the
 * blob references simply change owner (no count changes).
 */
export function restoreVersion(
  repo: FilesRepository,
  workspaceId: string,
  versionId: string,
  keep: number,
  now: number,
) {
  const version = repo.sql
    .get<VersionRow>(
      "SELECT id, entry_id, sha256, size, mime, created_at FROM file_versions WHERE id = ? AND workspace_id = ?",
    )
    .get(versionId, workspaceId);
  const entry = version && repo.byId(version.entry_id);
  if (!version || !entry || entry.trash_id !== null)
    throw notFound(`Version ${versionId}`, { versionId });
  repo.sql.get("DELETE FROM file_versions WHERE id = ?").run(version.id);
  keepCurrentAsVersion(repo, entry, keep);
  repo.sql
    .get("UPDATE entries SET sha256 = ?, size = ?, mime = ?, modified_at = ? WHERE id = ?")
    .run(version.sha256, version.size, version.mime ?? entry.mime, now, entry.id);
  if (entry.parent_id !== null) repo.reordered(entry.parent_id);
}
