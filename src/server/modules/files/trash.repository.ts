import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { type EntryRow, sortKey, subtreeRange } from "./files.repository";

export interface TrashRow {
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

/**
 * Marks a live entry and its whole subtree with the trash id: the rows stay where they are,
 * out of every listing, so restore is one UPDATE and the original paths are kept.
 */
export function markTrashed(db: Db, entry: EntryRow, trashId: string) {
  stmt(db, "UPDATE entries SET trash_id = ? WHERE id = ?").run(trashId, entry.id);
  if (entry.is_file === 0) {
    const [lo, hi] = subtreeRange(entry.path);
    stmt(
      db,
      "UPDATE entries SET trash_id = ? WHERE workspace_id = ? AND trash_id IS NULL AND path >= ? AND path < ?",
    ).run(trashId, entry.workspace_id, lo, hi);
  }
}

/** The bytes of every file marked with the trash id. */
export const trashedBytes = (db: Db, trashId: string) =>
  stmt<[string], number>(
    db,
    "SELECT coalesce(sum(size), 0) FROM entries WHERE trash_id = ? AND is_file = 1",
  )
    .pluck()
    .get(trashId) ?? 0;

export const insertTrashItem = (db: Db, row: TrashRow) =>
  stmt(
    db,
    `INSERT INTO trash_items (id, workspace_id, entry_id, path, name, is_file, size_bytes, deleted_at, purge_at)
     VALUES (@id, @workspace_id, @entry_id, @path, @name, @is_file, @size_bytes, @deleted_at, @purge_at)`,
  ).run(row);

/**
 * Deletes the rows marked with the trash id, their kept versions and the trash item, and
 * releases every blob reference they held (one per file and per version).
 */
export function deleteTrashed(db: Db, trashId: string) {
  stmt(
    db,
    `UPDATE blobs SET ref_count = ref_count - d.n
     FROM (SELECT sha256, count(*) AS n FROM (
             SELECT sha256 FROM entries WHERE trash_id = @trashId AND is_file = 1
             UNION ALL
             SELECT v.sha256 FROM file_versions v JOIN entries e ON e.id = v.entry_id WHERE e.trash_id = @trashId)
           GROUP BY sha256) AS d
     WHERE blobs.sha256 = d.sha256`,
  ).run({ trashId });
  stmt(
    db,
    "DELETE FROM file_versions WHERE entry_id IN (SELECT id FROM entries WHERE trash_id = ?)",
  ).run(trashId);
  stmt(db, "DELETE FROM entries WHERE trash_id = ?").run(trashId);
  stmt(db, "DELETE FROM trash_items WHERE id = ?").run(trashId);
}

/**
 * Puts a trash item's rows back in the tree: its top entry under `parentId` as `name` at
 * `path` (the subtree's paths already moved there), every row unmarked, the item gone.
 */
export function reattach(db: Db, item: TrashRow, parentId: number, name: string, path: string) {
  stmt(
    db,
    "UPDATE entries SET parent_id = ?, name = ?, sort_key = ?, path = ?, trash_id = NULL WHERE id = ?",
  ).run(parentId, name, sortKey(name), path, item.entry_id);
  stmt(db, "UPDATE entries SET trash_id = NULL WHERE trash_id = ?").run(item.id);
  stmt(db, "DELETE FROM trash_items WHERE id = ?").run(item.id);
}

export const trashItems = (db: Db, workspaceId: string) =>
  stmt<[string], TrashRow>(
    db,
    "SELECT * FROM trash_items WHERE workspace_id = ? ORDER BY deleted_at DESC, id DESC",
  ).all(workspaceId);

export const trashItem = (db: Db, workspaceId: string, id: string) =>
  stmt<[string, string], TrashRow>(
    db,
    "SELECT * FROM trash_items WHERE id = ? AND workspace_id = ?",
  ).get(id, workspaceId);

/** Trash items whose purge time has come, soonest first. */
/** A trash filter as SQL parameters; null leaves that condition out. */
export interface TrashMatch {
  workspaceId: string;
  /** Only items deleted at or before this time: what the selection meant when it was made. */
  asOf: number;
  q: string | null;
  /** Subtree range of the folder the items were deleted from (see subtreeRange). */
  lo: string;
  hi: string;
  after: number | null;
  before: number | null;
  /** JSON array of item ids left out. */
  except: string;
}

/**
 * `+` keeps the workspace index out of the keyset page: through it, every page read and sorted
 * all the matching items (15 ms a page at 65,000), where the id index reads just the next page.
 */
const matching = (keyset: boolean) => `FROM trash_items
  WHERE ${keyset ? "+" : ""}workspace_id = @workspaceId AND ${keyset ? "+" : ""}deleted_at <= @asOf
  AND (@q IS NULL OR instr(lower(path), lower(@q)) > 0)
  AND path >= @lo AND path < @hi
  AND (@after IS NULL OR deleted_at >= @after)
  AND (@before IS NULL OR deleted_at < @before)
  AND id NOT IN (SELECT value FROM json_each(@except))`;

export const countTrashMatching = (db: Db, m: TrashMatch) =>
  stmt<[TrashMatch], number>(db, `SELECT count(*) ${matching(false)}`)
    .pluck()
    .get(m)!;

/** The next `limit` matching items after the id `cursor`, in id order (a keyset page). */
export const trashMatchingAfter = (db: Db, m: TrashMatch, cursor: string, limit: number) =>
  stmt<[TrashMatch & { cursor: string; limit: number }], TrashRow>(
    db,
    `SELECT * ${matching(true)} AND id > @cursor ORDER BY id LIMIT @limit`,
  ).all({ ...m, cursor, limit });
