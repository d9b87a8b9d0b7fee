import { sequenceKey } from "@/contract/rules";
import type { PgClient } from "@/server/db/pg/pool";
import { notFound } from "@/server/lib/api-error";
import { newId } from "@/server/lib/ids";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import {
  ENTRY_COLUMNS,
  type EntryRow,
  joinPath,
  parentOf,
  sortKey,
  subtreeRange,
} from "@/server/modules/files/files.repository";
import { mimeFor } from "@/server/modules/files/media-types";
import { sequenceRange } from "@/server/modules/files/sequences.service";
import { DELETE_TRASHED, lostChild, markTrashed } from "@/server/modules/files/trash.pg";
import { childrenChanged, reordered } from "@/server/modules/files/tree.pg";
import { DROP_BEYOND } from "@/server/modules/files/versions.pg";
import { currentAsVersion } from "@/server/modules/files/versions.repository";
import {
  changingSteps,
  checkFresh,
  checkNested,
  conflictResult,
  planEntriesOf,
  planHash,
  RENAME_EXPANDED_MAX,
  type ReadPlan,
  type RenameBatchInput,
  renamedData,
  resultOf,
  setsToRead,
  tooManyItems,
} from "./rename-batch";
import { type EntryType, planRenames } from "./rename-plan";

/*
 * The batch rename on PostgreSQL (rename.service.ts and FilesService.renameMany on SQLite):
 * the same plan from the same rows, so the same planId, and the same statements in the same
 * order, so paths, counts, revisions and blob references come out alike (rename.engines.test.ts).
 */

const LIVE_AT = `SELECT ${ENTRY_COLUMNS} FROM entries
  WHERE workspace_id = $1 AND path = ANY($2::text[]) AND trash_id IS NULL`;

/** Frames read per query while a numbered set is walked through the name index. */
const SET_PAGE = 1000;

/**
 * sequenceOf: the file's numbered set, walked in pages of its sort-key range so a huge set is
 * read no further than `max` frames past the first.
 */
async function sequenceOfPg(c: PgClient, file: EntryRow, max: number): Promise<EntryRow[]> {
  const range = sequenceRange(file);
  if (!range) return [file];
  const frames: EntryRow[] = [];
  let after = "";
  for (;;) {
    const { rows } = await c.query<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM entries
       WHERE parent_id = $1 AND is_file = 1 AND trash_id IS NULL
         AND sort_key >= $2 AND sort_key < $3 AND sort_key > $4
       ORDER BY sort_key LIMIT $5`,
      [range.folderId, range.keyPrefix, `${range.keyPrefix}\u{10FFFF}`, after, SET_PAGE],
    );
    for (const sibling of rows) {
      if (sequenceKey(sibling.name) !== range.key) continue;
      frames.push(sibling);
      if (frames.length > max) return frames;
    }
    if (rows.length < SET_PAGE) break;
    after = rows.at(-1)!.sort_key;
  }
  return frames.length > 1 ? frames : [file];
}

async function readEntries(c: PgClient, workspaceId: string, body: RenameBatchInput) {
  const paths = [...new Set(body.paths)];
  const found = new Map(
    (await c.query<EntryRow>(LIVE_AT, [workspaceId, paths])).rows.map((r) => [r.path, r]),
  );
  const rows = new Map<string, EntryRow>();
  for (const p of paths) {
    const row = found.get(p);
    if (!row) throw notFound(`"${p}"`, { path: p });
    rows.set(p, row);
  }
  checkNested(paths);
  if (!body.expandSequences) return rows;
  for (const row of setsToRead(rows)) {
    for (const frame of await sequenceOfPg(c, row, RENAME_EXPANDED_MAX)) {
      rows.set(frame.path, frame);
      if (rows.size > RENAME_EXPANDED_MAX) throw tooManyItems();
    }
  }
  return rows;
}

/**
 * The planner asks what stands at each target synchronously; the paths it asks about do not
 * depend on the answers, so a first pass collects them and one query answers them all.
 */
export async function readPlanPg(
  c: PgClient,
  workspaceId: string,
  body: RenameBatchInput,
): Promise<ReadPlan> {
  const rows = await readEntries(c, workspaceId, body);
  const planEntries = planEntriesOf(rows);
  const asked: string[] = [];
  planRenames(planEntries, body.pattern, body.overwrite, (p) => {
    asked.push(p);
    return undefined;
  });
  const there = new Map<string, EntryType>(
    (await c.query<EntryRow>(LIVE_AT, [workspaceId, asked])).rows.map((r) => [
      r.path,
      r.is_file ? "file" : "folder",
    ]),
  );
  const plan = planRenames(planEntries, body.pattern, body.overwrite, (p) => there.get(p));
  const folders = [...new Set([...rows.values()].map((r) => r.parent_id!))];
  const { rows: revs } = await c.query<{ id: number; revision: number }>(
    "SELECT id, revision FROM entries WHERE id = ANY($1::bigint[])",
    [folders],
  );
  const revisions = new Map(revs.map((r) => [r.id, r.revision]));
  return { ...plan, rows, planId: planHash(body, rows, revisions) };
}

/** The entry's own name and path, a folder's live subtree along (PgFilesStore.rename). */
async function moveTo(c: PgClient, entry: EntryRow, from: string, name: string, to: string) {
  if (!entry.is_file) {
    const [lo, hi] = subtreeRange(from);
    await c.query(
      `UPDATE entries SET path = $1 || substr(path, length($2) + 1)
       WHERE workspace_id = $3 AND trash_id IS NULL AND path >= $4 AND path < $5`,
      [to, from, entry.workspace_id, lo, hi],
    );
  }
  await c.query("UPDATE entries SET name = $1, sort_key = $2, path = $3, mime = $4 WHERE id = $5", [
    name,
    sortKey(name),
    to,
    entry.is_file ? mimeFor(name) : null,
    entry.id,
  ]);
}

/**
 * FilesService.replaceWith: the file at the target keeps its place and history, its content
 * kept as a version; it takes the renamed file's content and versions, and the renamed entry
 * goes. The revision counter is taken before the blobs' rows (tree.pg.ts's lock order).
 */
async function replaceWith(
  c: PgClient,
  target: EntryRow,
  source: EntryRow,
  name: string,
  q: { keep: number; now: number },
) {
  await reordered(c, target.parent_id!);
  // Each content keeps how its bytes are encrypted (content protection), wherever it goes.
  const { rows } = await c.query<{ id: number; protection: string | null }>(
    "SELECT id, protection FROM entries WHERE id IN ($1, $2)",
    [target.id, source.id],
  );
  const protectionOf = (id: number) => rows.find((r) => r.id === id)?.protection ?? null;
  await c.query("UPDATE file_versions SET entry_id = $1 WHERE entry_id = $2", [
    target.id,
    source.id,
  ]);
  await c.query(
    `INSERT INTO file_versions (id, workspace_id, entry_id, sha256, size, mime, created_at, protection)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [...currentAsVersion(target), protectionOf(target.id)],
  );
  await c.query(DROP_BEYOND, [target.id, q.keep]);
  await c.query(
    `INSERT INTO blobs (sha256, size, ref_count, created_at) VALUES ($1, $2, 1, $3)
     ON CONFLICT (sha256) DO UPDATE SET ref_count = blobs.ref_count + 1`,
    [source.sha256, source.size, q.now],
  );
  await c.query(
    `UPDATE entries SET version_count = (SELECT count(*) FROM file_versions WHERE entry_id = $1),
       sha256 = $2, size = $3, mime = $4, modified_at = $5, protection = $6
     WHERE id = $1`,
    [
      target.id,
      source.sha256,
      source.size,
      mimeFor(name),
      source.modified_at,
      protectionOf(source.id),
    ],
  );
  const trashId = newId();
  await markTrashed(c, source, trashId);
  await lostChild(c, source, q.now);
  await c.query(DELETE_TRASHED, [trashId]);
}

/**
 * An apply, in PgFilesStore's unit (one transaction under the workspace's lock): the plan is
 * read inside it, so a planId is checked against the tree the renames change. Renames onto a
 * name another renamed entry is leaving go through an aside name first, as renameMany's do.
 */
export async function applyRenamesPg(
  c: PgClient,
  events: PgEventRecorder,
  q: { workspaceId: string; body: RenameBatchInput; keep: number },
  now: number,
) {
  const plan = await readPlanPg(c, q.workspaceId, q.body);
  checkFresh(q.body, plan.planId);
  const refused = conflictResult(plan);
  if (refused) return { result: refused, announced: null };
  const applied = changingSteps(plan);
  const result = resultOf(plan, false, applied, null);
  if (applied.length === 0) return { result, announced: null };
  const replaced = new Map(
    (
      await c.query<EntryRow>(LIVE_AT, [
        q.workspaceId,
        applied.filter((s) => s.overwrite).map((s) => s.to),
      ])
    ).rows.map((r) => [r.path, r]),
  );
  const targets = new Set(applied.map((s) => s.to));
  const at = new Map(applied.map((s) => [s.from, s.from]));
  for (const s of applied) {
    if (!targets.has(s.from)) continue;
    const entry = plan.rows.get(s.from)!;
    const aside = joinPath(parentOf(s.from), `\u0001rename-${entry.id}`);
    await moveTo(c, entry, s.from, `\u0001rename-${entry.id}`, aside);
    at.set(s.from, aside);
  }
  for (const s of applied) {
    const entry = plan.rows.get(s.from)!;
    const target = replaced.get(s.to);
    if (target) await replaceWith(c, target, entry, s.newName, { keep: q.keep, now });
    else await moveTo(c, entry, at.get(s.from)!, s.newName, s.to);
  }
  for (const folderId of new Set(applied.map((s) => plan.rows.get(s.from)!.parent_id!)))
    await childrenChanged(c, folderId, 0, 0, now);
  const announced = await events.write(
    c,
    q.workspaceId,
    "file.renamed",
    renamedData(applied.map((s) => ({ from: s.from, to: s.to }))),
  );
  return { result, announced };
}
