import path from "node:path";
import type { TrashItem } from "@/contract/files";
import { MAX_NAME_LENGTH } from "@/contract/rules";
import { notFound } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { BlobStore } from "./blob-store";
import {
  type EntryRow,
  type FilesRepository,
  joinPath,
  parentOf,
  sortKey,
  subtreeRange,
} from "./files.repository";

interface TrashRow {
  id: string;
  workspace_id: string;
  entry_id: number;
  path: string;
  name: string;
  is_file: 0 | 1;
  size_bytes: number | null;
  deleted_at: number;
  purge_at: number;
}

const DAY_MS = 86_400_000;

/**
 * Takes a live entry and its whole subtree out of the tree: the rows stay, marked with the
 * trash id, so restore is one UPDATE and the original paths are kept. Returns the trash id.
 */
export function detach(repo: FilesRepository, entry: EntryRow, now: number): string {
  const trashId = newId();
  const [lo, hi] = subtreeRange(entry.path);
  repo.sql.get("UPDATE entries SET trash_id = ? WHERE id = ?").run(trashId, entry.id);
  if (entry.is_file === 0) {
    repo.sql
      .get(
        "UPDATE entries SET trash_id = ? WHERE workspace_id = ? AND trash_id IS NULL AND path >= ? AND path < ?",
      )
      .run(trashId, entry.workspace_id, lo, hi);
  }
  if (entry.parent_id !== null) {
    repo.childrenChanged(entry.parent_id, entry.is_file ? 0 : -1, entry.is_file ? -1 : 0, now);
  }
  return trashId;
}

export function moveToTrash(
  repo: FilesRepository,
  entry: EntryRow,
  retentionDays: number,
  now: number,
) {
  const trashId = detach(repo, entry, now);
  const size = entry.is_file
    ? entry.size
    : (repo.sql
        .get<number>(
          "SELECT coalesce(sum(size), 0) FROM entries WHERE trash_id = ? AND is_file = 1",
        )
        .pluck()
        .get(trashId) ?? 0);
  repo.sql
    .get(
      `INSERT INTO trash_items (id, workspace_id, entry_id, path, name, is_file, size_bytes, deleted_at, purge_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      trashId,
      entry.workspace_id,
      entry.id,
      entry.path,
      entry.name,
      entry.is_file,
      size,
      now,
      now + retentionDays * DAY_MS,
    );
}

/** Deletes detached rows for good and releases every blob reference they held. */
export function purgeDetached(repo: FilesRepository, trashId: string) {
  repo.sql
    .get(
      `UPDATE blobs SET ref_count = ref_count - d.n
       FROM (SELECT sha256, count(*) AS n FROM (
               SELECT sha256 FROM entries WHERE trash_id = @trashId AND is_file = 1
               UNION ALL
               SELECT v.sha256 FROM file_versions v JOIN entries e ON e.id = v.entry_id WHERE e.trash_id = @trashId)
             GROUP BY sha256) AS d
       WHERE blobs.sha256 = d.sha256`,
    )
    .run({ trashId });
  repo.sql
    .get("DELETE FROM file_versions WHERE entry_id IN (SELECT id FROM entries WHERE trash_id = ?)")
    .run(trashId);
  repo.sql.get("DELETE FROM entries WHERE trash_id = ?").run(trashId);
  repo.sql.get("DELETE FROM trash_items WHERE id = ?").run(trashId);
}

export function listTrash(repo: FilesRepository, workspaceId: string): TrashItem[] {
  return repo.sql
    .get<TrashRow>(
      "SELECT * FROM trash_items WHERE workspace_id = ? ORDER BY deleted_at DESC, id DESC",
    )
    .all(workspaceId)
    .map((r) => ({
      id: r.id,
      path: r.path,
      name: r.name,
      sizeBytes: r.size_bytes,
      deletedAt: toIso(r.deleted_at),
      purgeAt: toIso(r.purge_at),
      type: r.is_file ? "file" : "folder",
    }));
}

export function getTrashItem(repo: FilesRepository, workspaceId: string, id: string): TrashRow {
  const row = repo.sql
    .get<TrashRow>("SELECT * FROM trash_items WHERE id = ? AND workspace_id = ?")
    .get(id, workspaceId);
  if (!row) throw notFound(`Trash item ${id}`, { itemId: id });
  return row;
}

/**
 * `report.pdf` → `report (restored).pdf`, then `report (restored 2).pdf`, …; a folder's dots are
 * part of its name (`Shots.v2 (restored)`). The stem is shortened, whole characters at a time,
 * so the name stays within the limit every name is held to.
 */
export function restoredName(name: string, isFile: boolean, attempt: number): string {
  const suffix = attempt === 1 ? " (restored)" : ` (restored ${attempt})`;
  let ext = isFile ? path.extname(name) : "";
  // An extension that leaves no room for a stem is not worth keeping apart.
  if (ext.length + suffix.length >= MAX_NAME_LENGTH) ext = "";
  const room = MAX_NAME_LENGTH - suffix.length - ext.length;
  let stem = "";
  for (const char of name.slice(0, name.length - ext.length)) {
    if (stem.length + char.length > room) break;
    stem += char;
  }
  return `${stem}${suffix}${ext}`;
}

/**
 * Puts a trashed subtree back under its original parent (recreated if it is gone). When the
 * original path is taken, the item comes back beside it as "name (restored)". Returns its path.
 */
export function restoreFromTrash(
  repo: FilesRepository,
  item: TrashRow,
  ensureFolder: (p: string) => EntryRow,
  now: number,
): string {
  const parent = ensureFolder(parentOf(item.path));
  let name = item.name;
  for (let attempt = 1; repo.byPath(item.workspace_id, joinPath(parent.path, name)); attempt++) {
    name = restoredName(item.name, item.is_file === 1, attempt);
  }
  const target = joinPath(parent.path, name);
  const entry = repo.byId(item.entry_id)!;
  if (target !== item.path) repo.movePrefix(item.workspace_id, item.path, target, item.id);
  repo.sql
    .get(
      "UPDATE entries SET parent_id = ?, name = ?, sort_key = ?, path = ?, trash_id = NULL WHERE id = ?",
    )
    .run(parent.id, name, sortKey(name), target, entry.id);
  repo.sql.get("UPDATE entries SET trash_id = NULL WHERE trash_id = ?").run(item.id);
  repo.childrenChanged(parent.id, entry.is_file ? 0 : 1, entry.is_file ? 1 : 0, now);
  repo.sql.get("DELETE FROM trash_items WHERE id = ?").run(item.id);
  return target;
}

/** Releases unreferenced blobs. Runs under the write lock so no writer can re-reference one mid-way. */
export function collectBlobs(repo: FilesRepository, blobs: BlobStore): number {
  return repo.db
    .transaction(() => {
      const gone = repo.sql
        .get<string>("DELETE FROM blobs WHERE ref_count <= 0 RETURNING sha256")
        .pluck()
        .all();
      for (const sha of gone) blobs.remove(sha);
      return gone.length;
    })
    .immediate();
}
