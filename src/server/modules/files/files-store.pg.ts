import type { SearchResult } from "@/contract/files";
import { normalizeName } from "@/contract/rules";
import { lockWorkspace, type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import { checkPath, notFound, validationFailed } from "@/server/lib/api-error";
import type { Clock } from "@/server/lib/clock";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import type { AnnouncedEvent } from "@/server/modules/events/events.repository";
import {
  ENTRY_COLUMNS,
  type EntryRow,
  joinPath,
  parentOf,
  sortKey,
  subtreeRange,
  toFileEntry,
} from "./files.repository";
import {
  checkNewName,
  type FilesStore,
  type FolderPage,
  type PageQuery,
  type SearchQuery,
} from "./files-store";
import { ORDER, type OrderKey } from "./listing.repository";
import {
  PageCache,
  PositionCache,
  pageKey,
  pageRuns,
  positionsKey,
  runStart,
  type SegmentRun,
  STEP,
} from "./listing.service";
import { mimeFor } from "./media-types";
import { searchFilesPg } from "./search.pg";
import { searchScope } from "./search.service";

const BY_PATH = `SELECT ${ENTRY_COLUMNS} FROM entries WHERE workspace_id = $1 AND path = $2 AND trash_id IS NULL`;

/** A FileEntry as JSON text, members in the order SQLite renders them (entryJson). */
const entryText = (r: EntryRow) =>
  JSON.stringify(Object.assign({ createdAt: "", modifiedAt: "" }, toFileEntry(r)));

/**
 * files.repository.ts's childrenChanged in one statement: a revision no folder has had, the
 * folder's counts, and its parent's revision (its listing shows the folder's count). The
 * counter's row lock is held to the commit, so tree writes take it before the event stream's
 * lock (events last), in the same order in every unit.
 */
const CHILDREN_CHANGED = `WITH r AS (
    INSERT INTO revision_counter (id, value) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET value = revision_counter.value + 1 RETURNING value),
  f AS (
    UPDATE entries SET folder_count = folder_count + $2, file_count = file_count + $3,
      revision = (SELECT value FROM r), modified_at = $4 WHERE id = $1 RETURNING parent_id)
  UPDATE entries SET revision = (SELECT value FROM r) WHERE id = (SELECT parent_id FROM f)`;

type Queryable = PgPool | PgClient;

/** A live entry by path (files.repository's byPath). */
export const entryAtPg = async (c: Queryable, workspaceId: string, p: string) =>
  (await c.query<EntryRow>(BY_PATH, [workspaceId, p])).rows[0];

/** The root folder row, made on first use as FilesService's is. */
async function rootPg(c: Queryable, workspaceId: string, now: number): Promise<EntryRow> {
  const found = await entryAtPg(c, workspaceId, "");
  if (found) return found;
  await c.query(
    `INSERT INTO entries (workspace_id, parent_id, name, sort_key, path, is_file, created_at, modified_at)
     VALUES ($1, NULL, '', '', '', 0, $2, $2) ON CONFLICT DO NOTHING`,
    [workspaceId, now],
  );
  return (await entryAtPg(c, workspaceId, ""))!;
}

async function insertFolderPg(c: PgClient, parent: EntryRow, name: string, now: number) {
  const { rows } = await c.query<EntryRow>(
    `INSERT INTO entries (workspace_id, parent_id, name, sort_key, path, is_file, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, 0, $6, $6) RETURNING ${ENTRY_COLUMNS}`,
    [parent.workspace_id, parent.id, name, sortKey(name), joinPath(parent.path, name), now],
  );
  await c.query(CHILDREN_CHANGED, [parent.id, 1, 0, now]);
  return rows[0]!;
}

/**
 * FilesService.ensureFolder in the caller's transaction (which holds the workspace's lock): the
 * folder and any missing parents, each path made pushed on `created`; no event.
 */
export async function ensureFolderPg(
  c: PgClient,
  workspaceId: string,
  p: string,
  now: number,
  created: string[] = [],
): Promise<EntryRow> {
  let current = await rootPg(c, workspaceId, now);
  for (const name of p === "" ? [] : normalizeName(p).split("/")) {
    const next = await entryAtPg(c, workspaceId, joinPath(current.path, name));
    if (next?.is_file)
      throw validationFailed("path", `"${next.path}" is a file, not a folder`, "file_in_the_way");
    current = next ?? (await insertFolderPg(c, current, name, now));
    if (!next) created.push(current.path);
  }
  return current;
}

function segmentSql(q: PageQuery, seek: boolean) {
  const { columns } = ORDER[q.sort];
  const dir = q.order === "asc" ? "ASC" : "DESC";
  const cmp = q.order === "asc" ? ">=" : "<=";
  const types = columns.map((c) => (c === "sort_key" ? "text" : "bigint"));
  const seekSql = seek
    ? ` AND (${columns.join(", ")}) ${cmp} (${types.map((t, i) => `$${i + 5}::${t}`).join(", ")})`
    : "";
  return `SELECT ${ENTRY_COLUMNS} FROM entries
    WHERE parent_id = $1 AND is_file = $2 AND trash_id IS NULL${seekSql}
    ORDER BY ${columns.map((c) => `${c} ${dir}`).join(", ")} LIMIT $3 OFFSET $4`;
}

function everyNthKeySql(q: PageQuery) {
  const { columns } = ORDER[q.sort];
  const dir = q.order === "asc" ? "ASC" : "DESC";
  return `SELECT ${columns.join(", ")} FROM (
      SELECT ${columns.join(", ")}, row_number() OVER (ORDER BY ${columns.map((c) => `${c} ${dir}`).join(", ")}) AS n
      FROM entries WHERE parent_id = $1 AND is_file = $2 AND trash_id IS NULL) s
    WHERE (n - 1) % $3 = 0 ORDER BY n`;
}

/**
 * The files area's metadata on PostgreSQL (docs/scale-out.md, Files metadata). Reads are single
 * statements on any pooled client; a unit that reads then writes holds its workspace's lock
 * (`lockWorkspace`, SQLite's BEGIN IMMEDIATE) and records its event last, in its transaction.
 * Listing keeps SQLite's caches: both are keyed by the folder's revision, which every writer
 * in every process renews in the transaction that changes the folder.
 */
export class PgFilesStore implements FilesStore {
  readonly positions = new PositionCache();
  readonly pages = new PageCache();

  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
    private readonly events: PgEventRecorder,
  ) {}

  async listPage(workspaceId: string, query: PageQuery): Promise<FolderPage> {
    const folder = await this.folder(this.pool, workspaceId, query.path, "query.path");
    const total = folder.folder_count + folder.file_count;
    const runs = pageRuns(folder, query);
    if (runs.length === 0) return { path: folder.path, total, items: "[]" };
    const key = pageKey(folder, query);
    let items = this.pages.peek(key);
    if (items === undefined) {
      const rows: EntryRow[] = [];
      for (const run of runs) rows.push(...(await this.segment(folder, run, query)));
      items = this.pages.put(key, `[${rows.map(entryText).join(",")}]`);
    }
    return { path: folder.path, total, items };
  }

  private async segment(folder: EntryRow, run: SegmentRun, q: PageQuery): Promise<EntryRow[]> {
    const { seek, walk } = runStart(run.offset);
    const args = [folder.id, run.isFile, run.limit, walk];
    if (seek === null) return (await this.pool.query<EntryRow>(segmentSql(q, false), args)).rows;
    const id = positionsKey(folder, run.isFile, q);
    let keys = this.positions.peek(id, folder.revision);
    if (!keys) {
      const { rows } = await this.pool.query<OrderKey>({
        text: everyNthKeySql(q),
        values: [folder.id, run.isFile, STEP],
        rowMode: "array",
      });
      keys = this.positions.put(id, folder.revision, rows);
    }
    const at = keys[seek];
    if (!at) return [];
    return (await this.pool.query<EntryRow>(segmentSql(q, true), [...args, ...at])).rows;
  }

  async search(workspaceId: string, { q, path, limit }: SearchQuery): Promise<SearchResult[]> {
    const c = await this.pool.connect();
    try {
      const scope = await this.folder(c, workspaceId, path, "query.path");
      return await searchFilesPg(c, searchScope(scope), q, limit);
    } finally {
      c.release();
    }
  }

  async rename(workspaceId: string, p: string, newName: string) {
    checkNewName(newName);
    await this.unit(workspaceId, async (c, now) => {
      const entry = await this.get(c, workspaceId, p);
      if (entry.name === newName) return null;
      const target = joinPath(parentOf(p), newName);
      if ((await c.query(BY_PATH, [workspaceId, target])).rowCount) {
        throw validationFailed("newName", `"${target}" already exists`, "conflict");
      }
      if (!entry.is_file) {
        const [lo, hi] = subtreeRange(p);
        // substr() and length() count characters on both engines, so the cut is the same.
        await c.query(
          `UPDATE entries SET path = $1 || substr(path, length($2) + 1)
           WHERE workspace_id = $3 AND trash_id IS NULL AND path >= $4 AND path < $5`,
          [target, p, workspaceId, lo, hi],
        );
      }
      await c.query(
        "UPDATE entries SET name = $1, sort_key = $2, path = $3, mime = $4 WHERE id = $5",
        [newName, sortKey(newName), target, entry.is_file ? mimeFor(newName) : null, entry.id],
      );
      await c.query(CHILDREN_CHANGED, [entry.parent_id, 0, 0, now]);
      return this.events.write(c, workspaceId, "file.renamed", {
        paths: [target],
        from: p,
        to: target,
      });
    });
  }

  async createFolder(workspaceId: string, p: string) {
    checkPath("path", p);
    let made = false;
    await this.unit(workspaceId, async (c, now) => {
      const created: string[] = [];
      await ensureFolderPg(c, workspaceId, p, now, created);
      made = created.length > 0;
      return made ? this.events.write(c, workspaceId, "file.created", { paths: created }) : null;
    });
    return made;
  }

  /** A unit that reads then writes the workspace's tree: one transaction under its lock. */
  private async unit(
    workspaceId: string,
    fn: (c: PgClient, now: number) => Promise<AnnouncedEvent | null>,
  ) {
    const announced = await withPgTransaction(this.pool, async (c) => {
      await lockWorkspace(c, workspaceId);
      return fn(c, this.clock.now());
    });
    if (announced) this.events.announce(announced);
  }

  /** A live entry, or 404; the empty path is the root, which always exists. */
  private async get(c: PgPool | PgClient, workspaceId: string, p: string): Promise<EntryRow> {
    const row =
      p === ""
        ? await rootPg(c, workspaceId, this.clock.now())
        : (await c.query<EntryRow>(BY_PATH, [workspaceId, p])).rows[0];
    if (!row) throw notFound(`"${p}"`, { path: p });
    return row;
  }

  private async folder(c: PgPool | PgClient, workspaceId: string, p: string, field: string) {
    const row = await this.get(c, workspaceId, p);
    if (row.is_file)
      throw validationFailed(field, `"${p}" is a file, not a folder`, "not_a_folder");
    return row;
  }
}
