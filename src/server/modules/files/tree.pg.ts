import { normalizeName } from "@/contract/rules";
import type { PgClient, PgPool } from "@/server/db/pg/pool";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { ENTRY_COLUMNS, type EntryRow, joinPath, sortKey } from "./files.repository";
import type { ManifestRow } from "./manifest.service";

/*
 * files.repository.ts's tree reads and writes on PostgreSQL, shared by the units of
 * files-store.pg.ts, trash.pg.ts and versions.pg.ts. Every one runs on the unit's client.
 */

type Queryable = PgPool | PgClient;

export const BY_PATH = `SELECT ${ENTRY_COLUMNS} FROM entries WHERE workspace_id = $1 AND path = $2 AND trash_id IS NULL`;

/**
 * A revision no folder has had (files.repository.ts's nextRevision). The store makes the
 * counter's row when a database was not moved from SQLite. Its row lock is held to the commit,
 * so tree writes take it before the event stream's lock (events last), in every unit alike.
 */
const NEXT_REVISION = `r AS (
    INSERT INTO revision_counter (id, value) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET value = revision_counter.value + 1 RETURNING value)`;

/**
 * childrenChanged in one statement: a new revision, the folder's counts, and its parent's
 * revision (its listing shows the folder's count).
 */
const CHILDREN_CHANGED = `WITH ${NEXT_REVISION},
  f AS (
    UPDATE entries SET folder_count = folder_count + $2, file_count = file_count + $3,
      revision = (SELECT value FROM r), modified_at = $4 WHERE id = $1 RETURNING parent_id)
  UPDATE entries SET revision = (SELECT value FROM r) WHERE id = (SELECT parent_id FROM f)`;

/** reordered: a child changed (content, date, version count) without changing the counts. */
const REORDERED = `WITH ${NEXT_REVISION} UPDATE entries SET revision = (SELECT value FROM r) WHERE id = $1`;

export const childrenChanged = (
  c: PgClient,
  folderId: number,
  folders: number,
  files: number,
  now: number,
) => c.query(CHILDREN_CHANGED, [folderId, folders, files, now]);

export const reordered = (c: PgClient, folderId: number) => c.query(REORDERED, [folderId]);

export const byPath = async (c: Queryable, workspaceId: string, p: string) =>
  (await c.query<EntryRow>(BY_PATH, [workspaceId, p])).rows[0];

/** The root folder row, made on first use as FilesService's is. */
export async function root(c: Queryable, workspaceId: string, now: number): Promise<EntryRow> {
  const found = await byPath(c, workspaceId, "");
  if (found) return found;
  await c.query(
    `INSERT INTO entries (workspace_id, parent_id, name, sort_key, path, is_file, created_at, modified_at)
     VALUES ($1, NULL, '', '', '', 0, $2, $2) ON CONFLICT DO NOTHING`,
    [workspaceId, now],
  );
  return (await byPath(c, workspaceId, ""))!;
}

/** A live entry, or 404; the empty path is the root, which always exists. */
export async function live(c: Queryable, workspaceId: string, p: string, now: number) {
  const row = p === "" ? await root(c, workspaceId, now) : await byPath(c, workspaceId, p);
  if (!row) throw notFound(`"${p}"`, { path: p });
  return row;
}

export async function liveFolder(
  c: Queryable,
  workspaceId: string,
  p: string,
  field: string,
  now: number,
) {
  const row = await live(c, workspaceId, p, now);
  if (row.is_file) throw validationFailed(field, `"${p}" is a file, not a folder`, "not_a_folder");
  return row;
}

async function insertFolder(c: PgClient, parent: EntryRow, name: string, now: number) {
  const { rows } = await c.query<EntryRow>(
    `INSERT INTO entries (workspace_id, parent_id, name, sort_key, path, is_file, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, 0, $6, $6) RETURNING ${ENTRY_COLUMNS}`,
    [parent.workspace_id, parent.id, name, sortKey(name), joinPath(parent.path, name), now],
  );
  await childrenChanged(c, parent.id, 1, 0, now);
  return rows[0]!;
}

/**
 * FilesService.ensureFolder: the folder and any missing parents, the path taken in NFC; a file
 * on the way is refused. `created` collects the paths of the folders it made.
 */
export async function ensureFolder(
  c: PgClient,
  workspaceId: string,
  p: string,
  now: number,
  created: string[] = [],
): Promise<EntryRow> {
  let current = await root(c, workspaceId, now);
  for (const name of p === "" ? [] : normalizeName(p).split("/")) {
    const next = await byPath(c, workspaceId, joinPath(current.path, name));
    if (next?.is_file)
      throw validationFailed("path", `"${next.path}" is a file, not a folder`, "file_in_the_way");
    current = next ?? (await insertFolder(c, current, name, now));
    if (!next) created.push(current.path);
  }
  return current;
}

/** files.repository.ts's filesAfter: a keyset page of a subtree's live files, for the manifest. */
export const filesAfter = async (
  pool: PgPool,
  workspaceId: string,
  after: string,
  hi: string,
  limit: number,
) =>
  (
    await pool.query<ManifestRow>(
      `SELECT path, size, modified_at, sha256 FROM entries
       WHERE workspace_id = $1 AND trash_id IS NULL AND path > $2 AND path < $3 AND is_file = 1
       ORDER BY path LIMIT $4`,
      [workspaceId, after, hi, limit],
    )
  ).rows;
