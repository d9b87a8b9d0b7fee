import type { FileVersion, SearchResult, TrashItem } from "@/contract/files";
import { lockWorkspace, type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Config } from "@/server/env";
import { checkPath, validationFailed } from "@/server/lib/api-error";
import type { Clock } from "@/server/lib/clock";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import type { AnnouncedEvent } from "@/server/modules/events/events.repository";
import { applyRenamesPg, readPlanPg } from "@/server/modules/rename/rename.pg";
import type { RenameBatchInput } from "@/server/modules/rename/rename-batch";
import { resultOf } from "@/server/modules/rename/rename-batch";
import { compilePattern } from "@/server/modules/rename/rename-plan";
import {
  ENTRY_COLUMNS,
  type EntryRow,
  joinPath,
  parentOf,
  sortKey,
  subtreeRange,
  toFileEntry,
} from "./files.repository";
import type { FilesLimits } from "./files.service";
import {
  checkNewName,
  type FilesStore,
  type FolderPage,
  type PageQuery,
  type RenameBatchResult,
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
import { DEFAULT_MANIFEST_LIMIT, manifestJson } from "./manifest.service";
import { mimeFor } from "./media-types";
import { searchFilesPg } from "./search.pg";
import { searchScope } from "./search.service";
import { listTrashPg, purgeTrashPg, removePg, restoreTrashPg } from "./trash.pg";
import { byPath, childrenChanged, ensureFolder, filesAfter, live, liveFolder } from "./tree.pg";
import { listVersionsPg, restoreVersionPg } from "./versions.pg";

/** A FileEntry as JSON text, members in the order SQLite renders them (entryJson). */
const entryText = (r: EntryRow) =>
  JSON.stringify(Object.assign({ createdAt: "", modifiedAt: "" }, toFileEntry(r)));

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
  readonly limits: FilesLimits = { manifest: DEFAULT_MANIFEST_LIMIT };

  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
    private readonly events: PgEventRecorder,
    private readonly config: Pick<Config, "trashRetentionDays" | "versionsKeep">,
  ) {}

  async listPage(workspaceId: string, query: PageQuery): Promise<FolderPage> {
    const folder = await liveFolder(this.pool, workspaceId, query.path, "query.path", this.now());
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
      const scope = await liveFolder(c, workspaceId, path, "query.path", this.now());
      return await searchFilesPg(c, searchScope(scope), q, limit);
    } finally {
      c.release();
    }
  }

  async rename(workspaceId: string, p: string, newName: string) {
    checkNewName(newName);
    await this.unit(workspaceId, async (c, now) => {
      const entry = await live(c, workspaceId, p, now);
      if (entry.name === newName) return null;
      const target = joinPath(parentOf(p), newName);
      if (await byPath(c, workspaceId, target)) {
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
      await childrenChanged(c, entry.parent_id!, 0, 0, now);
      return this.events.write(c, workspaceId, "file.renamed", {
        paths: [target],
        from: p,
        to: target,
      });
    });
  }

  async createFolder(workspaceId: string, p: string) {
    checkPath("path", p);
    const created: string[] = [];
    await this.unit(workspaceId, async (c, now) => {
      await ensureFolder(c, workspaceId, p, now, created);
      return created.length
        ? this.events.write(c, workspaceId, "file.created", { paths: created })
        : null;
    });
    return created.length > 0;
  }

  async remove(workspaceId: string, paths: string[], permanent: boolean) {
    const retentionDays = this.config.trashRetentionDays;
    await this.unit(workspaceId, (c, now) =>
      removePg(c, this.events, { workspaceId, paths, permanent, retentionDays }, now),
    );
  }

  listTrash(workspaceId: string): Promise<TrashItem[]> {
    return listTrashPg(this.pool, workspaceId);
  }

  async restoreTrashItem(workspaceId: string, itemId: string) {
    let restored = { path: "", renamed: false };
    await this.unit(workspaceId, async (c, now) => {
      const done = await restoreTrashPg(c, this.events, workspaceId, itemId, now);
      restored = done.restored;
      return done.announced;
    });
    return restored;
  }

  async purgeTrashItem(workspaceId: string, itemId: string) {
    await this.unit(workspaceId, (c) => purgeTrashPg(c, this.events, workspaceId, itemId));
  }

  async listVersions(workspaceId: string, path: string): Promise<FileVersion[]> {
    return listVersionsPg(this.pool, await live(this.pool, workspaceId, path, this.now()), path);
  }

  async restoreVersion(workspaceId: string, versionId: string) {
    const keep = this.config.versionsKeep;
    await this.unit(workspaceId, (c, now) =>
      restoreVersionPg(c, this.events, { workspaceId, versionId, keep }, now),
    );
  }

  async renameBatch(workspaceId: string, body: RenameBatchInput): Promise<RenameBatchResult> {
    // A bad pattern is refused before anything is read.
    compilePattern(body.pattern);
    if (body.dryRun) {
      // One snapshot for every read of the plan, as SQLite's read transaction gives.
      const plan = await withPgTransaction(this.pool, (c) => readPlanPg(c, workspaceId, body), {
        isolation: "repeatable read",
      });
      return resultOf(plan, true, [], null);
    }
    const keep = this.config.versionsKeep;
    let result: RenameBatchResult | undefined;
    await this.unit(workspaceId, async (c, now) => {
      const done = await applyRenamesPg(c, this.events, { workspaceId, body, keep }, now);
      result = done.result;
      return done.announced;
    });
    return result!;
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

  async manifest(workspaceId: string, path: string) {
    const folder = await liveFolder(this.pool, workspaceId, path, "query.path", this.now());
    return manifestJson(folder, this.limits.manifest, (after, hi, limit) =>
      filesAfter(this.pool, workspaceId, after, hi, limit),
    );
  }

  private now() {
    return this.clock.now();
  }
}
