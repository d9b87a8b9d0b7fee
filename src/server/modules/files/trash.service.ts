import path from "node:path";
import type { TrashItem } from "@/contract/files";
import { MAX_NAME_LENGTH } from "@/contract/rules";
import type { Db } from "@/server/db/database";
import { notFound } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { BlobStore } from "./blob-store";
import {
  byPath,
  childrenChanged,
  deleteUnreferencedBlobs,
  type EntryRow,
  joinPath,
  movePrefix,
  parentOf,
} from "./files.repository";
import {
  deleteTrashed,
  insertTrashItem,
  markTrashed,
  reattach,
  type TrashRow,
  trashedBytes,
  trashItem,
  trashItems,
} from "./trash.repository";

const DAY_MS = 86_400_000;

/**
 * Takes a live entry and its whole subtree out of the tree (the rows stay, marked with a new
 * trash id) and updates its folder's counts. Returns the trash id.
 */
export function detach(db: Db, entry: EntryRow, now: number): string {
  const trashId = newId();
  markTrashed(db, entry, trashId);
  if (entry.parent_id !== null) {
    childrenChanged(db, entry.parent_id, entry.is_file ? 0 : -1, entry.is_file ? -1 : 0, now);
  }
  return trashId;
}

/** The trash item of a live entry just marked with `trashId`, whose files hold `bytes`. */
export const trashRow = (
  entry: EntryRow,
  trashId: string,
  bytes: number,
  retentionDays: number,
  now: number,
): TrashRow => ({
  id: trashId,
  workspace_id: entry.workspace_id,
  entry_id: entry.id,
  path: entry.path,
  name: entry.name,
  is_file: entry.is_file,
  size_bytes: bytes,
  deleted_at: now,
  purge_at: now + retentionDays * DAY_MS,
});

/**
 * What a delete of `paths` takes out of the tree: each path once, in order, without the paths
 * inside another selected folder (they go along with it).
 */
export function topPaths(paths: string[]): string[] {
  const unique = [...new Set(paths)].sort();
  return unique.filter((p) => !unique.some((q) => p.startsWith(`${q}/`)));
}

/** Detaches the entry as one trash item, purged automatically `retentionDays` later. */
export function moveToTrash(db: Db, entry: EntryRow, retentionDays: number, now: number): TrashRow {
  return trashEach(db, [entry], retentionDays, now)[0]!;
}

/**
 * Each entry becomes its own trash item, as `moveToTrash` makes one, but each parent folder's
 * counts and revision are settled once for the whole batch: a bulk job trashing a thousand
 * children of one folder draws one revision, not a thousand.
 */
export function trashEach(
  db: Db,
  rows: EntryRow[],
  retentionDays: number,
  now: number,
): TrashRow[] {
  const items = rows.map((entry) => {
    const trashId = newId();
    markTrashed(db, entry, trashId);
    const bytes = entry.is_file ? entry.size : trashedBytes(db, trashId);
    const item = trashRow(entry, trashId, bytes, retentionDays, now);
    insertTrashItem(db, item);
    return item;
  });
  parentsLost(db, rows, now);
  return items;
}

/** Deletes each entry and its subtree for good (a permanent delete), settling parents once. */
export function deleteEach(db: Db, rows: EntryRow[], now: number) {
  for (const entry of rows) {
    const trashId = newId();
    markTrashed(db, entry, trashId);
    deleteTrashed(db, trashId);
  }
  parentsLost(db, rows, now);
}

/** One count and revision update per parent folder for the entries taken out of it. */
function parentsLost(db: Db, rows: EntryRow[], now: number) {
  for (const [folderId, n] of countByParent(rows))
    childrenChanged(db, folderId, -n.folders, -n.files, now);
}

/**
 * The folders and files among the rows under each parent, parents in first-seen order: what a
 * batch settles once per parent (trash.pg.ts and a bulk restore's batch too).
 */
export function countByParent(rows: Pick<EntryRow, "parent_id" | "is_file">[]) {
  const lost = new Map<number, { folders: number; files: number }>();
  for (const entry of rows) {
    if (entry.parent_id === null) continue;
    const n = lost.get(entry.parent_id) ?? { folders: 0, files: 0 };
    if (entry.is_file) n.files++;
    else n.folders++;
    lost.set(entry.parent_id, n);
  }
  return lost;
}

export const toTrashItem = (r: TrashRow): TrashItem => ({
  id: r.id,
  path: r.path,
  name: r.name,
  sizeBytes: r.size_bytes,
  deletedAt: toIso(r.deleted_at),
  purgeAt: toIso(r.purge_at),
  type: r.is_file ? "file" : "folder",
});

export const listTrash = (db: Db, workspaceId: string): TrashItem[] =>
  trashItems(db, workspaceId).map(toTrashItem);

export const noTrashItem = (id: string) => notFound(`Trash item ${id}`, { itemId: id });

export function getTrashItem(db: Db, workspaceId: string, id: string): TrashRow {
  const row = trashItem(db, workspaceId, id);
  if (!row) throw noTrashItem(id);
  return row;
}

/**
 * `report.pdf` → `report (restored).pdf`, then `report (restored 2).pdf`, …; a folder's dots are
 * part of its name (`Shots.v2 (restored)`).
 */
export const restoredName = (name: string, isFile: boolean, attempt: number) =>
  suffixedName(name, isFile, attempt === 1 ? " (restored)" : ` (restored ${attempt})`);

/**
 * The name with `suffix` before a file's extension (a folder's dots are part of its name), the
 * stem shortened whole characters at a time so the name stays within the limit every name is
 * held to: a restored item's new name, a kept-both copy's.
 */
export function suffixedName(name: string, isFile: boolean, suffix: string): string {
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
 * original path is taken, the item comes back beside it as "name (restored)". Returns where it
 * now is and whether that is another name than it had.
 */
export function restoreFromTrash(
  db: Db,
  item: TrashRow,
  ensureFolder: (p: string) => EntryRow,
  now: number,
): { path: string; renamed: boolean } {
  const parent = ensureFolder(parentOf(item.path));
  const restored = putBack(db, item, parent);
  childrenChanged(db, parent.id, item.is_file ? 0 : 1, item.is_file ? 1 : 0, now);
  return restored;
}

/**
 * `restoreFromTrash` without its parent's count and revision, which the caller settles: a bulk
 * restore settles each parent once per batch (`childrenChanged` with the batch's totals).
 */
export function putBack(
  db: Db,
  item: TrashRow,
  parent: EntryRow,
): { path: string; renamed: boolean } {
  let name = item.name;
  for (let attempt = 1; byPath(db, item.workspace_id, joinPath(parent.path, name)); attempt++) {
    name = restoredName(item.name, item.is_file === 1, attempt);
  }
  const target = joinPath(parent.path, name);
  if (target !== item.path) movePrefix(db, item.workspace_id, item.path, target, item.id);
  reattach(db, item, parent.id, name, target);
  return { path: target, renamed: name !== item.name };
}

/** Releases unreferenced blobs. Runs under the write lock so no writer can re-reference one mid-way. */
export function collectBlobs(db: Db, blobs: BlobStore): number {
  return db
    .transaction(() => {
      const gone = deleteUnreferencedBlobs(db);
      for (const sha of gone) blobs.remove(sha);
      return gone.length;
    })
    .immediate();
}
