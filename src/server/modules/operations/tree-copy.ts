import path from "node:path";
import type { ConflictChoice } from "@/contract/operations";
import { MAX_NAME_LENGTH } from "@/contract/rules";
import type { Db } from "@/server/db/database";
import {
  addBlobRef,
  byPath,
  childrenChanged,
  type EntryRow,
  joinPath,
  reordered,
  setContent,
} from "@/server/modules/files/files.repository";
import { deleteTrashed } from "@/server/modules/files/trash.repository";
import { detach } from "@/server/modules/files/trash.service";
import {
  childrenOf,
  insertCopy,
  moveVersions,
  subtreeRows,
  subtreeTotals,
} from "@/server/modules/files/tree.repository";
import { recountVersions } from "@/server/modules/files/versions.repository";
import { keepCurrentAsVersion } from "@/server/modules/files/versions.service";

/** An item that cannot be done as planned; the job fails with this message, earlier items stay done. */
export class ItemError extends Error {}

export interface CopyContext {
  db: Db;
  move: boolean;
  versionsKeep: number;
  now: number;
}

interface Written {
  files: number;
  bytes: number;
}

export type ItemOutcome =
  | { status: "done"; destinationPath: string; files: number; bytes: number }
  | { status: "skipped" };

/**
 * `shot.exr` → `shot (2).exr`, then `shot (3).exr`, …; a folder's dots are part of its name. The
 * stem is shortened, whole characters at a time, so the name stays within 255 characters.
 */
export function keepBothName(name: string, isFile: boolean, n: number): string {
  const suffix = ` (${n})`;
  let ext = isFile ? path.extname(name) : "";
  if (ext.length + suffix.length >= MAX_NAME_LENGTH) ext = "";
  const room = MAX_NAME_LENGTH - suffix.length - ext.length;
  let stem = "";
  for (const char of name.slice(0, name.length - ext.length)) {
    if (stem.length + char.length > room) break;
    stem += char;
  }
  return `${stem}${suffix}${ext}`;
}

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
  let target = byPath(ctx.db, src.workspace_id, joinPath(dest.path, name));
  const written: Written = { files: 0, bytes: 0 };
  let fresh = true;
  if (target) {
    if (choice === null) throw new ItemError(`"${target.path}" already exists`);
    if (choice === "skip") return { status: "skipped" };
    if (choice === "keepBoth") {
      for (let n = 2; target; n++) {
        name = keepBothName(src.name, src.is_file === 1, n);
        target = byPath(ctx.db, src.workspace_id, joinPath(dest.path, name));
      }
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
    keepCurrentAsVersion(ctx.db, target, ctx.versionsKeep);
    setContent(
      ctx.db,
      target.id,
      { sha256: src.sha256!, size: src.size, mime: src.mime },
      src.modified_at,
    );
  } else if (ctx.move) {
    recountVersions(ctx.db, target.id);
  }
  reordered(ctx.db, dest.id);
  written.files += 1;
  written.bytes += src.size;
}

/** A new entry `name` in `dest` with `src`'s whole subtree, parents before their contents. */
function copyFresh(ctx: CopyContext, src: EntryRow, dest: EntryRow, name: string, w: Written) {
  const { db, move, now } = ctx;
  const refs = new Map<string, { size: number; count: number }>();
  const copyRow = (row: EntryRow, parentId: number, rowName: string, rowPath: string) => {
    const id = insertCopy(db, row, parentId, rowName, rowPath, {
      createdAt: move ? row.created_at : now,
      modifiedAt: row.modified_at,
      versionCount: move ? row.version_count : 0,
    });
    if (row.is_file) {
      const ref = refs.get(row.sha256!) ?? { size: row.size, count: 0 };
      ref.count += 1;
      refs.set(row.sha256!, ref);
      if (move) moveVersions(db, row.id, id);
      w.files += 1;
      w.bytes += row.size;
    } else if (row.folder_count + row.file_count > 0) {
      // A folder with children needs a revision no folder had: its id may be a deleted one's.
      childrenChanged(db, id, 0, 0, now);
    }
    return id;
  };
  const topPath = joinPath(dest.path, name);
  const ids = new Map<number, number>([[src.id, copyRow(src, dest.id, name, topPath)]]);
  childrenChanged(db, dest.id, src.is_file ? 0 : 1, src.is_file ? 1 : 0, now);
  if (!src.is_file) {
    for (const row of subtreeRows(db, src.workspace_id, src.path)) {
      const rowPath = topPath + row.path.slice(src.path.length);
      const id = copyRow(row, ids.get(row.parent_id!)!, row.name, rowPath);
      if (!row.is_file) ids.set(row.id, id);
    }
  }
  for (const [sha256, ref] of refs) addBlobRef(db, sha256, ref.size, now, ref.count);
}
