import type { TrashItem } from "@/contract/files";
import type { PgClient, PgPool } from "@/server/db/pg/pool";
import { notFound } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import {
  ENTRY_COLUMNS,
  type EntryRow,
  joinPath,
  parentOf,
  sortKey,
  subtreeRange,
} from "./files.repository";
import type { TrashRow } from "./trash.repository";
import {
  countByParent,
  noTrashItem,
  restoredName,
  topPaths,
  toTrashItem,
  trashRow,
} from "./trash.service";
import { byPath, childrenChanged, ensureFolder } from "./tree.pg";

/*
 * The trash's units on PostgreSQL (trash.service.ts and FilesService's remove, restoreTrash and
 * purgeTrash on SQLite), each run by PgFilesStore in one transaction under the workspace's lock,
 * the same statements in the same order, so counts, revisions and blob references come out alike
 * (files-store.trash.test.ts). Each returns the unit's event, written last.
 */

/**
 * markTrashed: the entry and, for a folder, its live subtree get the trash id. Returns the bytes
 * of the files marked (trashedBytes), read from the rows the UPDATE touched.
 */
export async function markTrashed(c: PgClient, entry: EntryRow, trashId: string): Promise<number> {
  await c.query("UPDATE entries SET trash_id = $1 WHERE id = $2", [trashId, entry.id]);
  if (entry.is_file) return entry.size;
  const [lo, hi] = subtreeRange(entry.path);
  const { rows } = await c.query<{ bytes: number }>(
    `WITH m AS (
       UPDATE entries SET trash_id = $1
       WHERE workspace_id = $2 AND trash_id IS NULL AND path >= $3 AND path < $4
       RETURNING is_file, size)
     SELECT coalesce(sum(size) FILTER (WHERE is_file = 1), 0)::bigint AS bytes FROM m`,
    [trashId, entry.workspace_id, lo, hi],
  );
  return rows[0]!.bytes;
}

/**
 * deleteTrashed in one statement: the rows marked with the trash id, their kept versions and
 * the trash item go, and every blob reference they held (one per file and per version) is
 * released. Unreferenced blobs are the hourly purge's to collect, as on SQLite.
 */
export const DELETE_TRASHED = `WITH gone AS (
    DELETE FROM entries WHERE trash_id = $1 RETURNING id, is_file, sha256),
  versions AS (
    DELETE FROM file_versions WHERE entry_id IN (SELECT id FROM gone) RETURNING sha256),
  refs AS (
    SELECT sha256, count(*) AS n FROM (
      SELECT sha256 FROM gone WHERE is_file = 1 UNION ALL SELECT sha256 FROM versions) held
    GROUP BY sha256),
  released AS (
    UPDATE blobs SET ref_count = blobs.ref_count - refs.n FROM refs WHERE blobs.sha256 = refs.sha256)
  DELETE FROM trash_items WHERE id = $1`;

/** deleteFiles: all or nothing, every path resolved before anything changes. */
export async function removePg(
  c: PgClient,
  events: PgEventRecorder,
  q: { workspaceId: string; paths: string[]; permanent: boolean; retentionDays: number },
  now: number,
) {
  const { workspaceId } = q;
  const tops = topPaths(q.paths);
  const { rows } = await c.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM entries
     WHERE workspace_id = $1 AND path = ANY($2::text[]) AND trash_id IS NULL`,
    [workspaceId, tops],
  );
  const at = new Map(rows.map((r) => [r.path, r]));
  const found = tops.map((p) => {
    const row = at.get(p);
    if (!row) throw notFound(`"${p}"`, { path: p });
    return row;
  });
  if (q.permanent) {
    for (const entry of found) {
      const trashId = newId();
      await markTrashed(c, entry, trashId);
      await lostChild(c, entry, now);
      await c.query(DELETE_TRASHED, [trashId]);
    }
    return events.write(c, workspaceId, "file.deleted", { paths: tops });
  }
  const items: TrashRow[] = [];
  for (const entry of found) {
    const trashId = newId();
    const item = trashRow(
      entry,
      trashId,
      await markTrashed(c, entry, trashId),
      q.retentionDays,
      now,
    );
    await insertTrashItem(c, item);
    await lostChild(c, entry, now);
    items.push(item);
  }
  return events.write(c, workspaceId, "file.trashed", {
    paths: tops,
    itemIds: items.map((i) => i.id),
    purgeAt: toIso(items[0]!.purge_at),
  });
}

const insertTrashItem = (c: PgClient, item: TrashRow) =>
  c.query(
    `INSERT INTO trash_items (id, workspace_id, entry_id, path, name, is_file, size_bytes, deleted_at, purge_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      item.id,
      item.workspace_id,
      item.entry_id,
      item.path,
      item.name,
      item.is_file,
      item.size_bytes,
      item.deleted_at,
      item.purge_at,
    ],
  );

/**
 * trashEach: each entry its own trash item, each parent's counts and revision settled once for
 * the batch (a bulk trash job's batch), in the same order as on SQLite.
 */
export async function trashEachPg(
  c: PgClient,
  rows: EntryRow[],
  retentionDays: number,
  now: number,
): Promise<TrashRow[]> {
  const items: TrashRow[] = [];
  for (const entry of rows) {
    const trashId = newId();
    const bytes = await markTrashed(c, entry, trashId);
    const item = trashRow(entry, trashId, bytes, retentionDays, now);
    await insertTrashItem(c, item);
    items.push(item);
  }
  await parentsLost(c, rows, now);
  return items;
}

/** deleteEach: each entry and its subtree gone for good, each parent settled once. */
export async function deleteEachPg(c: PgClient, rows: EntryRow[], now: number) {
  for (const entry of rows) {
    const trashId = newId();
    await markTrashed(c, entry, trashId);
    await c.query(DELETE_TRASHED, [trashId]);
  }
  await parentsLost(c, rows, now);
}

/** deleteTrashed: a trash item's rows, versions and blob references gone. */
export const deleteTrashedPg = (c: PgClient, trashId: string) => c.query(DELETE_TRASHED, [trashId]);

async function parentsLost(c: PgClient, rows: EntryRow[], now: number) {
  for (const [folderId, n] of countByParent(rows))
    await childrenChanged(c, folderId, -n.folders, -n.files, now);
}

/** The entry's folder lost it: its counts and revision (detach, parentsLost). */
export const lostChild = (c: PgClient, entry: EntryRow, now: number) =>
  entry.parent_id === null
    ? null
    : childrenChanged(c, entry.parent_id, entry.is_file ? 0 : -1, entry.is_file ? -1 : 0, now);

export async function listTrashPg(pool: PgPool, workspaceId: string): Promise<TrashItem[]> {
  const { rows } = await pool.query<TrashRow>(
    "SELECT * FROM trash_items WHERE workspace_id = $1 ORDER BY deleted_at DESC, id DESC",
    [workspaceId],
  );
  return rows.map(toTrashItem);
}

/** The item, locked: the hourly purge in another process may be about to delete it. */
async function trashItem(c: PgClient, workspaceId: string, id: string): Promise<TrashRow> {
  const { rows } = await c.query<TrashRow>(
    "SELECT * FROM trash_items WHERE id = $1 AND workspace_id = $2 FOR UPDATE",
    [id, workspaceId],
  );
  if (!rows[0]) throw noTrashItem(id);
  return rows[0];
}

/** restoreFromTrash: back under its (recreated) parent, beside a taken path under a new name. */
export async function restoreTrashPg(
  c: PgClient,
  events: PgEventRecorder,
  workspaceId: string,
  itemId: string,
  now: number,
) {
  const item = await trashItem(c, workspaceId, itemId);
  const parent = await ensureFolder(c, workspaceId, parentOf(item.path), now);
  const restored = await putBackPg(c, item, parent);
  await childrenChanged(c, parent.id, item.is_file ? 0 : 1, item.is_file ? 1 : 0, now);
  const announced = await events.write(c, workspaceId, "file.restored", {
    paths: [restored.path],
    itemId,
    originalPath: item.path,
    renamed: restored.renamed,
  });
  return { restored, announced };
}

/**
 * putBack: the item's rows back under `parent`, beside a taken path under a new name; the
 * parent's count and revision are the caller's to settle.
 */
export async function putBackPg(c: PgClient, item: TrashRow, parent: EntryRow) {
  let name = item.name;
  for (
    let attempt = 1;
    await byPath(c, item.workspace_id, joinPath(parent.path, name));
    attempt++
  ) {
    name = restoredName(item.name, item.is_file === 1, attempt);
  }
  const target = joinPath(parent.path, name);
  if (target !== item.path) {
    const [lo, hi] = subtreeRange(item.path);
    // substr() and length() count characters on both engines, so the cut is the same.
    await c.query(
      `UPDATE entries SET path = $1 || substr(path, length($2) + 1)
       WHERE trash_id = $3 AND path >= $4 AND path < $5`,
      [target, item.path, item.id, lo, hi],
    );
  }
  await c.query(
    "UPDATE entries SET parent_id = $1, name = $2, sort_key = $3, path = $4, trash_id = NULL WHERE id = $5",
    [parent.id, name, sortKey(name), target, item.entry_id],
  );
  await c.query("UPDATE entries SET trash_id = NULL WHERE trash_id = $1", [item.id]);
  await c.query("DELETE FROM trash_items WHERE id = $1", [item.id]);
  return { path: target, renamed: name !== item.name };
}

export async function purgeTrashPg(
  c: PgClient,
  events: PgEventRecorder,
  workspaceId: string,
  itemId: string,
) {
  const item = await trashItem(c, workspaceId, itemId);
  await c.query(DELETE_TRASHED, [item.id]);
  return events.write(c, workspaceId, "file.deleted", { paths: [item.path], itemId });
}
