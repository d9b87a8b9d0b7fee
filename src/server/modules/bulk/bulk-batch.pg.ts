import { lockWorkspace, type PgClient } from "@/server/db/pg/pool";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import type { AnnouncedEvent } from "@/server/modules/events/events.repository";
import {
  ENTRY_COLUMNS,
  type EntryRow,
  joinPath,
  parentOf,
} from "@/server/modules/files/files.repository";
import {
  deleteEachPg,
  deleteTrashedPg,
  putBackPg,
  trashEachPg,
} from "@/server/modules/files/trash.pg";
import type { TrashMatch, TrashRow } from "@/server/modules/files/trash.repository";
import { countByParent } from "@/server/modules/files/trash.service";
import { byPath, childrenChanged, ensureFolder } from "@/server/modules/files/tree.pg";
import type { BulkFailure, BulkJobRow, BulkSample } from "./bulk.repository";
import { isActive } from "./bulk.repository";
import { addToSample, restoreFailure, sampleRestored } from "./bulk-actions";
import { bulkJobRowPg, leaseHeldPg, saveProgressPg } from "./bulk-rows.pg";
import {
  type Batch,
  type BatchOutcome,
  type BatchRunner,
  cursorAfter,
  endEvent,
  folderCursor,
  folderPosition,
  isJobFolder,
  listed,
  listedPage,
  match,
  missingEntry,
  missingItem,
  progressed,
  type StoredSelection,
} from "./bulk-selection";
import type { Lease } from "./bulk-store";

/*
 * A bulk job's batch on PostgreSQL (bulk-batch.ts on SQLite), deciding alike through
 * bulk-selection.ts and changing the tree through the files area's helpers (trash.pg.ts,
 * tree.pg.ts). One transaction under the workspace's lock holds the batch's changes, the
 * counters and the cursor, and the end event, written last.
 */

/** What a batch needs besides its client: the time, the trash's retention, the recorder. */
export interface BatchContext {
  events: PgEventRecorder;
  retentionDays: number;
  now: number;
}

/**
 * The job's next batch in the caller's transaction. Returns whether there is more to do and
 * the end event to announce after the commit.
 */
export async function runBatchPg(
  c: PgClient,
  ctx: BatchContext,
  runner: BatchRunner,
  id: string,
  lease: Lease | undefined,
): Promise<{ more: boolean; announced: AnnouncedEvent | null }> {
  const found = await bulkJobRowPg(c, id);
  if (!found) return { more: false, announced: null };
  // The lock before the row is read again: a cancel committed meanwhile is seen, as on SQLite.
  await lockWorkspace(c, found.workspace_id);
  const row = (await bulkJobRowPg(c, id))!;
  if (!isActive(row.status) || (lease && !(await leaseHeldPg(c, lease))))
    return { more: false, announced: null };
  const selection = JSON.parse(row.selection) as StoredSelection;
  const total = row.total ?? (await count(c, runner, row, selection));
  const sample = JSON.parse(row.sample) as BulkSample;
  const outcome = await act(c, ctx, runner, row, selection, sample);
  const next = progressed(row, total, outcome, sample, ctx.now);
  await saveProgressPg(c, next);
  if (next.cursor !== null) return { more: true, announced: null };
  return { more: false, announced: await writeEnd(c, ctx.events, next) };
}

/** The job's one event (bulk-selection.ts, endEvent), written last in the unit. */
export async function writeEnd(c: PgClient, events: PgEventRecorder, row: BulkJobRow) {
  const event = endEvent(row);
  return event ? events.write(c, row.workspace_id, event.type, event.data) : null;
}

async function act(
  c: PgClient,
  ctx: BatchContext,
  runner: BatchRunner,
  row: BulkJobRow,
  selection: StoredSelection,
  sample: BulkSample,
): Promise<BatchOutcome> {
  if (row.action === "trash" || row.action === "delete") {
    const { targets, failures, cursor } = await entries(c, runner, row, selection);
    if (row.action === "delete") await deleteEachPg(c, targets, ctx.now);
    else {
      const items = await trashEachPg(c, targets, ctx.retentionDays, ctx.now);
      await c.query(
        `INSERT INTO bulk_job_trash (job_id, trash_id) SELECT $1, unnest($2::text[])
         ON CONFLICT DO NOTHING`,
        [row.id, items.map((i) => i.id)],
      );
      for (const item of items) addToSample(sample, item.path, item.id);
      if (items[0] && sample.purgeAt === undefined) sample.purgeAt = items[0].purge_at;
      return { done: items.length, failures, cursor };
    }
    for (const entry of targets) addToSample(sample, entry.path);
    return { done: targets.length, failures, cursor };
  }
  const { targets, failures, cursor } = await trashItems(c, runner, row, selection);
  if (row.action === "purge") {
    for (const item of targets) {
      await deleteTrashedPg(c, item.id);
      addToSample(sample, item.path, item.id);
    }
    return { done: targets.length, failures, cursor };
  }
  const refused = await restoreEach(c, row, targets, sample, ctx.now);
  return { done: targets.length - refused.length, failures: [...failures, ...refused], cursor };
}

/**
 * restoreBatch: each item as POST restore puts it back, in a savepoint of its own so a refused
 * one leaves nothing behind; each parent found once and settled once for the batch.
 */
async function restoreEach(
  c: PgClient,
  row: BulkJobRow,
  targets: TrashRow[],
  sample: BulkSample,
  now: number,
) {
  const failures: BulkFailure[] = [];
  const parents = new Map<string, EntryRow>();
  const gained: { parent_id: number; is_file: 0 | 1 }[] = [];
  for (const item of targets) {
    const parentPath = parentOf(item.path);
    await c.query("SAVEPOINT bulk_item");
    try {
      const parent =
        parents.get(parentPath) ?? (await ensureFolder(c, row.workspace_id, parentPath, now));
      const restored = await putBackPg(c, item, parent);
      await c.query("RELEASE SAVEPOINT bulk_item");
      parents.set(parentPath, parent);
      gained.push({ parent_id: parent.id, is_file: item.is_file });
      sampleRestored(sample, item, restored.path);
    } catch (err) {
      await c.query("ROLLBACK TO SAVEPOINT bulk_item");
      failures.push(restoreFailure(item, err));
    }
  }
  for (const [folderId, n] of countByParent(gained))
    await childrenChanged(c, folderId, n.folders, n.files, now);
  return failures;
}

const one = async <T>(c: PgClient, sql: string, args: unknown[]) =>
  (await c.query(sql, args)).rows[0] as T;

/**
 * trash.repository's filter as SQL from $1: `instr` is `strpos`, and the needle is lowered in
 * "C" as the path is, so only ASCII folds, as SQLite's lower() does.
 */
const MATCHING = `FROM trash_items
  WHERE workspace_id = $1 AND deleted_at <= $2
  AND ($3::text IS NULL OR strpos(lower(path), lower($3::text COLLATE "C")) > 0)
  AND path >= $4 AND path < $5
  AND ($6::bigint IS NULL OR deleted_at >= $6) AND ($7::bigint IS NULL OR deleted_at < $7)
  AND id <> ALL($8::text[])`;

const matchArgs = (m: TrashMatch) => [
  m.workspaceId,
  m.asOf,
  m.q,
  m.lo,
  m.hi,
  m.after,
  m.before,
  JSON.parse(m.except) as string[],
];

async function count(
  c: PgClient,
  runner: BatchRunner,
  row: BulkJobRow,
  selection: StoredSelection,
): Promise<number> {
  switch (selection.kind) {
    case "paths":
    case "ids":
      return listed(runner, row, selection).length;
    case "undo":
      return (
        await one<{ n: number }>(c, "SELECT count(*) AS n FROM bulk_job_trash WHERE job_id = $1", [
          selection.jobId,
        ])
      ).n;
    case "filter":
      return (
        await one<{ n: number }>(
          c,
          `SELECT count(*) AS n ${MATCHING}`,
          matchArgs(match(row, selection)),
        )
      ).n;
    case "folder": {
      const folder = await liveFolder(c, row);
      if (!folder) return 0;
      const except = selection.except.map((n) => joinPath(folder.path, n));
      const { n } = await one<{ n: number }>(
        c,
        `SELECT count(*) AS n FROM entries
         WHERE workspace_id = $1 AND trash_id IS NULL AND path = ANY($2::text[])`,
        [row.workspace_id, except],
      );
      return folder.folder_count + folder.file_count - n;
    }
  }
}

async function liveFolder(c: PgClient, row: BulkJobRow) {
  if (row.folder_id === null) return undefined;
  const folder = await one<EntryRow | undefined>(
    c,
    `SELECT ${ENTRY_COLUMNS} FROM entries WHERE id = $1`,
    [row.folder_id],
  );
  return isJobFolder(row, folder) ? folder : undefined;
}

async function entries(
  c: PgClient,
  runner: BatchRunner,
  row: BulkJobRow,
  selection: StoredSelection,
): Promise<Batch<EntryRow>> {
  const n = runner.size;
  if (selection.kind === "folder") {
    const folder = await liveFolder(c, row);
    if (!folder) return { targets: [], failures: [], cursor: null };
    const at = folderPosition(row);
    const { rows: targets } = await c.query<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM entries
       WHERE parent_id = $1 AND trash_id IS NULL AND (is_file, sort_key) > ($2::bigint, $3::text)
         AND name <> ALL($4::text[])
       ORDER BY is_file, sort_key LIMIT $5`,
      [folder.id, at.isFile, at.sortKey, selection.except, n],
    );
    return { targets, failures: [], cursor: folderCursor(targets, n) };
  }
  if (selection.kind !== "paths") throw new Error(`bad selection for ${row.action}`);
  const next = listedPage(runner, row, selection);
  const targets: EntryRow[] = [];
  const failures: BulkFailure[] = [];
  for (const p of next) {
    const entry = await byPath(c, row.workspace_id, p);
    if (entry) targets.push(entry);
    else failures.push(missingEntry(p));
  }
  return { targets, failures, cursor: cursorAfter(next, n) };
}

async function trashItems(
  c: PgClient,
  runner: BatchRunner,
  row: BulkJobRow,
  selection: StoredSelection,
): Promise<Batch<TrashRow>> {
  const n = runner.size;
  const after = row.cursor ?? "";
  if (selection.kind === "filter") {
    // Locked: the hourly purge in another process may be about to delete one.
    const { rows: targets } = await c.query<TrashRow>(
      `SELECT * ${MATCHING} AND id > $9 ORDER BY id LIMIT $10 FOR UPDATE`,
      [...matchArgs(match(row, selection)), after, n],
    );
    return {
      targets,
      failures: [],
      cursor: cursorAfter(
        targets.map((t) => t.id),
        n,
      ),
    };
  }
  let ids: string[];
  if (selection.kind === "undo") {
    const { rows } = await c.query<{ trash_id: string }>(
      `SELECT trash_id FROM bulk_job_trash WHERE job_id = $1 AND trash_id > $2
       ORDER BY trash_id LIMIT $3`,
      [selection.jobId, after, n],
    );
    ids = rows.map((r) => r.trash_id);
  } else if (selection.kind === "ids") ids = listedPage(runner, row, selection);
  else throw new Error(`bad selection for ${row.action}`);
  const { rows } = await c.query<TrashRow>(
    "SELECT * FROM trash_items WHERE id = ANY($1::text[]) AND workspace_id = $2 FOR UPDATE",
    [ids, row.workspace_id],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const targets: TrashRow[] = [];
  const failures: BulkFailure[] = [];
  for (const id of ids) {
    const item = byId.get(id);
    if (item) targets.push(item);
    else failures.push(missingItem(id));
  }
  return { targets, failures, cursor: cursorAfter(ids, n) };
}
