import path from "node:path";
import type { Statement } from "better-sqlite3";
import type { FileEntry } from "@/contract/files";
import { joinPath, nameSortKey as sortKey } from "@/contract/rules";
import type { Db } from "@/server/db/database";
import { toIso } from "@/server/lib/clock";

// The path rules are shared with the console; the service's modules take them from here.
export { baseName, joinPath, nameSortKey as sortKey, parentOf } from "@/contract/rules";

export interface EntryRow {
  id: number;
  workspace_id: string;
  parent_id: number | null;
  name: string;
  sort_key: string;
  path: string;
  is_file: 0 | 1;
  size: number;
  mime: string | null;
  sha256: string | null;
  folder_count: number;
  file_count: number;
  version_count: number;
  revision: number;
  trash_id: string | null;
  created_at: number;
  modified_at: number;
}

export const ENTRY_COLUMNS =
  "id, workspace_id, parent_id, name, sort_key, path, is_file, size, mime, sha256, folder_count, file_count, version_count, revision, trash_id, created_at, modified_at";

/** Bounds of a subtree in the path index: every path that starts with `p/`. */
export const subtreeRange = (p: string) => (p ? [`${p}/`, `${p}0`] : ["", "\u{10FFFF}"]);

const MIME: Record<string, string> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".csv": "text/csv",
  ".json": "application/json",
  ".xml": "application/xml",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".exr": "image/x-exr",
  ".dpx": "image/x-dpx",
  ".svg": "image/svg+xml",
  ".mp4": "video/mp4",
  ".mov": "video/quicktime",
  ".mxf": "application/mxf",
  ".webm": "video/webm",
  ".wav": "audio/wav",
  ".mp3": "audio/mpeg",
  ".aac": "audio/aac",
  ".flac": "audio/flac",
  ".zip": "application/zip",
  ".edl": "text/plain",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};
export const mimeFor = (name: string) =>
  MIME[path.extname(name).toLowerCase()] ?? "application/octet-stream";

/**
 * A FileEntry rendered by SQLite, without its two dates (see `entryJson`). Listing is the
 * hottest path of the service: building the JSON text in C skips converting every column to a
 * JS value, building an object and stringifying it again, which is most of a 200-entry page.
 */
export const ENTRY_JSON_COLUMNS = `json_object('name', name, 'path', path, 'type', iif(is_file, 'file', 'folder'),
  'sizeBytes', iif(is_file, size, NULL), 'mimeType', iif(is_file, mime, NULL), 'sha256', iif(is_file, sha256, NULL),
  'childCount', iif(is_file, NULL, folder_count + file_count), 'versionCount', version_count), created_at, modified_at`;

/** One row of ENTRY_JSON_COLUMNS as FileEntry JSON text. */
export const entryJson = (r: unknown[]) =>
  `{"createdAt":"${toIso(r[1] as number)}","modifiedAt":"${toIso(r[2] as number)}",${(r[0] as string).slice(1)}`;

export function toFileEntry(r: EntryRow): FileEntry {
  const file = r.is_file === 1;
  return {
    name: r.name,
    path: r.path,
    type: file ? "file" : "folder",
    sizeBytes: file ? r.size : null,
    mimeType: file ? r.mime : null,
    sha256: file ? r.sha256 : null,
    childCount: file ? null : r.folder_count + r.file_count,
    versionCount: r.version_count,
    createdAt: toIso(r.created_at),
    modifiedAt: toIso(r.modified_at),
  };
}

/** Prepares each SQL text once per connection; the hot paths run thousands of times a second. */
export class StatementCache {
  private statements = new Map<string, Statement>();
  constructor(readonly db: Db) {}
  get<R = unknown>(sql: string): Statement<unknown[], R> {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as Statement<unknown[], R>;
  }
}

/** Prepared SQL over the file tree, shared by the HTTP handlers, workers, seeders and the CLI. */
export class FilesRepository {
  readonly sql: StatementCache;
  constructor(readonly db: Db) {
    this.sql = new StatementCache(db);
  }

  byPath(workspaceId: string, p: string): EntryRow | undefined {
    return this.sql
      .get<EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM entries WHERE workspace_id = ? AND path = ? AND trash_id IS NULL`,
      )
      .get(workspaceId, p);
  }

  byId(id: number): EntryRow | undefined {
    return this.sql.get<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM entries WHERE id = ?`).get(id);
  }

  /** The root folder row, created on first use (workspaces are made before the files area runs). */
  root(workspaceId: string, now: number): EntryRow {
    const existing = this.byPath(workspaceId, "");
    if (existing) return existing;
    this.sql
      .get(
        `INSERT INTO entries (workspace_id, parent_id, name, sort_key, path, is_file, created_at, modified_at)
         VALUES (?, NULL, '', '', '', 0, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .run(workspaceId, now, now);
    return this.byPath(workspaceId, "")!;
  }

  insert(
    parent: EntryRow,
    name: string,
    file: { size: number; mime: string; sha256: string } | null,
    now: number,
    times: { createdAt?: number; modifiedAt?: number } = {},
  ): EntryRow {
    const { lastInsertRowid } = this.sql
      .get(
        `INSERT INTO entries (workspace_id, parent_id, name, sort_key, path, is_file, size, mime, sha256, created_at, modified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        parent.workspace_id,
        parent.id,
        name,
        sortKey(name),
        joinPath(parent.path, name),
        file ? 1 : 0,
        file?.size ?? 0,
        file?.mime ?? null,
        file?.sha256 ?? null,
        times.createdAt ?? now,
        times.modifiedAt ?? now,
      );
    this.childrenChanged(parent.id, file ? 0 : 1, file ? 1 : 0, now);
    return this.byId(Number(lastInsertRowid))!;
  }

  /**
   * A revision no folder has had before: entry ids are reused after a delete, so a count per
   * folder could give a recreated folder the revision, and so the cached pages, of the one it
   * replaces (see migration 0004). Runs inside the writer's transaction, in any process.
   */
  private nextRevision(): number {
    return this.sql
      .get<number>("UPDATE revision_counter SET value = value + 1 RETURNING value")
      .pluck()
      .get()!;
  }

  /**
   * Keeps the folder's exact counts and revision in the transaction that changed its children.
   * The folder's own parent gets a new revision too: its listing shows this folder's count.
   */
  childrenChanged(folderId: number, folders: number, files: number, now: number) {
    const revision = this.nextRevision();
    this.sql
      .get(
        `UPDATE entries SET folder_count = folder_count + ?, file_count = file_count + ?,
           revision = ?, modified_at = ? WHERE id = ?`,
      )
      .run(folders, files, revision, now, folderId);
    this.sql
      .get(
        "UPDATE entries SET revision = ? WHERE id = (SELECT parent_id FROM entries WHERE id = ?)",
      )
      .run(revision, folderId);
  }

  /** A child changed (new content, date or version count) without changing the counts. */
  reordered(folderId: number) {
    this.sql.get("UPDATE entries SET revision = ? WHERE id = ?").run(this.nextRevision(), folderId);
  }

  /**
   * Rewrites the path prefix of every live entry below `from` (a folder rename or restore).
   * SQLite counts characters where JS counts UTF-16 units, so the prefix's length is measured
   * in SQL: a name outside the BMP (an emoji) would otherwise cut every path in the wrong place.
   */
  movePrefix(workspaceId: string, from: string, to: string, trashId: string | null) {
    const [lo, hi] = subtreeRange(from);
    if (trashId) {
      this.sql
        .get(
          "UPDATE entries SET path = ? || substr(path, length(?) + 1) WHERE trash_id = ? AND path >= ? AND path < ?",
        )
        .run(to, from, trashId, lo, hi);
    } else {
      this.sql
        .get(
          `UPDATE entries SET path = ? || substr(path, length(?) + 1)
           WHERE workspace_id = ? AND trash_id IS NULL AND path >= ? AND path < ?`,
        )
        .run(to, from, workspaceId, lo, hi);
    }
  }

  addBlobRef(sha256: string, size: number, now: number, delta = 1) {
    this.sql
      .get(
        `INSERT INTO blobs (sha256, size, ref_count, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (sha256) DO UPDATE SET ref_count = ref_count + excluded.ref_count`,
      )
      .run(sha256, size, delta, now);
  }

  dropBlobRef(sha256: string) {
    this.sql.get("UPDATE blobs SET ref_count = ref_count - 1 WHERE sha256 = ?").run(sha256);
  }
}
