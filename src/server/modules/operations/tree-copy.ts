import type { ConflictChoice } from "@/contract/operations";
import type { Db } from "@/server/db/database";
import {
  addBlobRef,
  byPath,
  childrenChanged,
  type EntryRow,
  joinPath,
  movePrefix,
  parentOf,
  protectionOf,
  rename,
  reordered,
  setContent,
  setProtection,
} from "@/server/modules/files/files.repository";
import { deleteTrashed, markTrashed } from "@/server/modules/files/trash.repository";
import { detach, suffixedName } from "@/server/modules/files/trash.service";
import {
  childrenOf,
  hiddenFolders,
  hiddenTop,
  hiddenTotals,
  insertCopy,
  moveVersions,
  revealHidden,
  subtreeRows,
  subtreeRowsAfter,
  subtreeTotals,
  takeVersions,
} from "@/server/modules/files/tree.repository";
import { protectNewestVersion, recountVersions } from "@/server/modules/files/versions.repository";
import { keepCurrentAsVersion } from "@/server/modules/files/versions.service";

/** An item that cannot be done as planned; the job fails with this message, earlier items stay done. */
export class ItemError extends Error {}

export interface CopyContext {
  db: Db;
  move: boolean;
  versionsKeep: number;
  now: number;
  /** Each file a copy writes, at its new path (a copied video queues its missing proxies). */
  copied?: (file: EntryRow, path: string) => void;
}

interface Written {
  files: number;
  bytes: number;
}

export type ItemOutcome =
  | { status: "done"; destinationPath: string; files: number; bytes: number }
  | { status: "skipped" };

/** `shot.exr` → `shot (2).exr`, then `shot (3).exr`, … (see `suffixedName`). */
export const keepBothName = (name: string, isFile: boolean, n: number) =>
  suffixedName(name, isFile, ` (${n})`);

const isWithin = (p: string, folder: string) => p === folder || p.startsWith(`${folder}/`);

/**
 * Copies or moves one planned item into `dest`, inside the caller's transaction, so the item is
 * done whole or not at all. The copy references the same blobs (no bytes are copied); a move is
 * that copy, verified (file count and bytes equal the source's), then the originals deleted. A
 * moved file keeps its kept versions and dates; a copy is a new file with the live content only.
 * Every folder whose children change gets a new revision through `childrenChanged`/`reordered`,
 * as every write of the files module does, so no cached page of it is served again.
 */
export function transferItem(
  ctx: CopyContext,
  src: EntryRow,
  dest: EntryRow,
  choice: ConflictChoice | null,
): ItemOutcome {
  if (!src.is_file && isWithin(dest.path, src.path)) {
    throw new ItemError(`"${src.path}" cannot go into itself`);
  }
  const expected = src.is_file
    ? { files: 1, bytes: src.size }
    : subtreeTotals(ctx.db, src.workspace_id, src.path);
  let name = src.name;
  const target = byPath(ctx.db, src.workspace_id, joinPath(dest.path, name));
  const written: Written = { files: 0, bytes: 0 };
  let fresh = true;
  if (target) {
    if (choice === null) throw new ItemError(`"${target.path}" already exists`);
    if (choice === "skip") return { status: "skipped" };
    if (choice === "keepBoth") {
      name = freshName(ctx.db, src, dest, choice)!;
    } else if (target.id === src.id) {
      throw new ItemError(`"${src.path}" cannot replace itself`);
    } else {
      put(ctx, src, src, dest, written);
      fresh = false;
    }
  }
  const destinationPath = joinPath(dest.path, name);
  if (fresh) copyFresh(ctx, src, dest, name, written);
  const copied = fresh
    ? src.is_file
      ? written
      : subtreeTotals(ctx.db, src.workspace_id, destinationPath)
    : written;
  if (copied.files !== expected.files || copied.bytes !== expected.bytes) {
    throw new ItemError(
      `"${src.path}": the copy holds ${copied.files} files and ${copied.bytes} bytes, the source ${expected.files} and ${expected.bytes}`,
    );
  }
  if (ctx.move) deleteTrashed(ctx.db, detach(ctx.db, src, ctx.now));
  return { status: "done", destinationPath, ...expected };
}

/**
 * `src` into `dest` under its own name, replacing what is there: a file's content replaces the
 * file's (the old content is kept as a version), a folder merges into the folder.
 */
function put(ctx: CopyContext, top: EntryRow, src: EntryRow, dest: EntryRow, written: Written) {
  const target = byPath(ctx.db, src.workspace_id, joinPath(dest.path, src.name));
  if (!target) {
    copyFresh(ctx, src, dest, src.name, written);
    return;
  }
  if (isWithin(target.path, top.path)) {
    throw new ItemError(`"${top.path}" cannot be merged into itself`);
  }
  if (target.is_file !== src.is_file) {
    throw new ItemError(
      `"${target.path}" is a ${target.is_file ? "file" : "folder"}; a ${src.is_file ? "file" : "folder"} cannot replace it`,
    );
  }
  if (!src.is_file) {
    for (const child of childrenOf(ctx.db, src.id)) put(ctx, top, child, target, written);
    return;
  }
  if (ctx.move) moveVersions(ctx.db, src.id, target.id);
  if (target.sha256 !== src.sha256) {
    addBlobRef(ctx.db, src.sha256!, src.size, ctx.now);
    const replaced = protectionOf(ctx.db, target.id);
    keepCurrentAsVersion(ctx.db, target, ctx.versionsKeep);
    if (replaced) protectNewestVersion(ctx.db, target.id, replaced);
    setContent(
      ctx.db,
      target.id,
      { sha256: src.sha256!, size: src.size, mime: src.mime },
      src.modified_at,
    );
    setProtection(ctx.db, target.id, protectionOf(ctx.db, src.id));
    if (!ctx.move) ctx.copied?.(src, target.path);
  } else if (ctx.move) {
    recountVersions(ctx.db, target.id);
  }
  reordered(ctx.db, dest.id);
  written.files += 1;
  written.bytes += src.size;
}

/**
 * Copies rows one at a time (parents first), counting what it wrote; `flush` adds the blob
 * references of the files copied, one statement per blob. With `hiddenAs`, the rows are written
 * out of the tree under that mark (a staged copy).
 */
function rowCopier(ctx: CopyContext, w: Written, hiddenAs?: string) {
  const { db, move, now } = ctx;
  const refs = new Map<string, { size: number; count: number }>();
  const copy = (row: EntryRow, parentId: number, rowName: string, rowPath: string) => {
    const id = insertCopy(db, row, parentId, rowName, rowPath, {
      createdAt: move ? row.created_at : now,
      modifiedAt: row.modified_at,
      versionCount: move ? row.version_count : 0,
      hiddenAs,
    });
    if (row.is_file) {
      if (!move) ctx.copied?.(row, rowPath);
      const ref = refs.get(row.sha256!) ?? { size: row.size, count: 0 };
      ref.count += 1;
      refs.set(row.sha256!, ref);
      // A hidden copy takes the versions only when it is revealed (`revealStage`).
      if (move && !hiddenAs) moveVersions(db, row.id, id);
      w.files += 1;
      w.bytes += row.size;
    } else if (row.folder_count + row.file_count > 0) {
      // A folder with children needs a revision no folder had: its id may be a deleted one's.
      childrenChanged(db, id, 0, 0, now);
    }
    return id;
  };
  const flush = () => {
    for (const [sha256, ref] of refs) addBlobRef(db, sha256, ref.size, now, ref.count);
    refs.clear();
  };
  return { copy, flush };
}

/** A new entry `name` in `dest` with `src`'s whole subtree, parents before their contents. */
function copyFresh(ctx: CopyContext, src: EntryRow, dest: EntryRow, name: string, w: Written) {
  const { copy, flush } = rowCopier(ctx, w);
  const topPath = joinPath(dest.path, name);
  const ids = new Map<number, number>([[src.id, copy(src, dest.id, name, topPath)]]);
  childrenChanged(ctx.db, dest.id, src.is_file ? 0 : 1, src.is_file ? 1 : 0, ctx.now);
  if (!src.is_file) {
    for (const row of subtreeRows(ctx.db, src.workspace_id, src.path)) {
      const rowPath = topPath + row.path.slice(src.path.length);
      const id = copy(row, ids.get(row.parent_id!)!, row.name, rowPath);
      if (!row.is_file) ids.set(row.id, id);
    }
  }
  flush();
}

/**
 * The name a new copy of `src` takes in `dest`: its own when free; with `keepBoth`, the first
 * free "name (n)"; otherwise null (the name is taken and the copy would not be a new entry).
 */
export function freshName(
  db: Db,
  src: EntryRow,
  dest: EntryRow,
  choice: ConflictChoice | null,
): string | null {
  let name = src.name;
  let target = byPath(db, src.workspace_id, joinPath(dest.path, name));
  if (!target) return name;
  if (choice !== "keepBoth") return null;
  for (let n = 2; target; n++) {
    name = keepBothName(src.name, src.is_file === 1, n);
    target = byPath(db, src.workspace_id, joinPath(dest.path, name));
  }
  return name;
}

/*
 * Staged copies. A big folder copied in one transaction would hold the write lock and the event
 * loop for as long as its rows take (about 0.3 s per 10,000 files; a move over 1 s), so a folder
 * with more files than the worker's threshold is copied over several transactions, hidden under a
 * mark (as trashed rows are: out of every listing, search and count), then revealed in one short
 * transaction once whole and verified; a move hides its originals in that same transaction and
 * the worker deletes them in steps. A cancel or a failure discards a hidden copy.
 */

/** The mark of an item's hidden copy. */
export const stageMark = (operationId: string, idx: number) => `op:${operationId}:${idx}`;
/** The mark of a move's originals once its copy is revealed, until they are deleted. */
export const originalsMark = (mark: string) => `${mark}:from`;

/**
 * Copies, hidden, the top folder (first step, `after` null) and then up to `limit` entries of the
 * subtree after the path `after`. Returns the last source path copied and whether that was all.
 */
export function stageStep(
  ctx: CopyContext,
  src: EntryRow,
  dest: EntryRow,
  name: string,
  mark: string,
  after: string | null,
  limit: number,
): { cursor: string; done: boolean } {
  const w: Written = { files: 0, bytes: 0 };
  const { copy, flush } = rowCopier(ctx, w, mark);
  const topPath = joinPath(dest.path, name);
  if (after === null) copy(src, dest.id, name, topPath);
  const folders = new Map(hiddenFolders(ctx.db, mark).map((f) => [f.path, f.id]));
  const rows = subtreeRowsAfter(ctx.db, src.workspace_id, src.path, after ?? "", limit);
  for (const row of rows) {
    const rowPath = topPath + row.path.slice(src.path.length);
    const parentId = folders.get(parentOf(rowPath));
    // A folder made in the source after the copy passed its place.
    if (parentId === undefined) throw new ItemError(`"${src.path}" changed while it was copied`);
    const id = copy(row, parentId, row.name, rowPath);
    if (!row.is_file) folders.set(rowPath, id);
  }
  flush();
  return { cursor: rows.at(-1)?.path ?? after ?? "", done: rows.length < limit };
}

/**
 * Puts a whole hidden copy in the tree, in one transaction: verified against the source (file
 * count and bytes), under its name, or under the next free one with `keepBoth` when the name was
 * taken meanwhile (`skip`: skipped; otherwise the item fails).
 */
export function revealStage(
  ctx: CopyContext,
  src: EntryRow,
  dest: EntryRow,
  choice: ConflictChoice | null,
  mark: string,
  name: string,
): ItemOutcome {
  const expected = subtreeTotals(ctx.db, src.workspace_id, src.path);
  const copied = hiddenTotals(ctx.db, mark);
  if (copied.files !== expected.files || copied.bytes !== expected.bytes) {
    throw new ItemError(`"${src.path}" changed while it was copied`);
  }
  const stagedPath = joinPath(dest.path, name);
  const top = hiddenTop(ctx.db, mark, stagedPath);
  if (!top || top.parent_id !== dest.id) {
    throw new ItemError(`"${dest.path}" changed while "${src.path}" was copied into it`);
  }
  let destinationPath = stagedPath;
  if (byPath(ctx.db, src.workspace_id, stagedPath)) {
    if (choice === "skip") return { status: "skipped" };
    const other = freshName(ctx.db, src, dest, choice);
    if (other === null) throw new ItemError(`"${stagedPath}" already exists`);
    destinationPath = joinPath(dest.path, other);
    movePrefix(ctx.db, src.workspace_id, stagedPath, destinationPath, mark);
    rename(ctx.db, top.id, other, destinationPath, null);
  }
  revealHidden(ctx.db, mark);
  childrenChanged(ctx.db, dest.id, 1, 0, ctx.now);
  if (ctx.move) {
    // The originals leave the tree now, hidden; the worker deletes them in steps.
    takeVersions(ctx.db, src.workspace_id, src.path, destinationPath);
    markTrashed(ctx.db, src, originalsMark(mark));
    childrenChanged(ctx.db, src.parent_id!, -1, 0, ctx.now);
  }
  return { status: "done", destinationPath, ...expected };
}
