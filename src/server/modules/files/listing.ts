import type { FileSortField, SortOrder } from "@/contract/files";
import {
  ENTRY_JSON_COLUMNS,
  type EntryRow,
  entryJson,
  type FilesRepository,
} from "./files.repository";

/** Spacing of the remembered positions: a deep page walks at most this many extra index entries. */
const STEP = 128;
/** Below this offset, walking the index is cheaper than keeping positions. */
const DIRECT_OFFSET_LIMIT = 2048;
const CACHED_FOLDERS = 256;

type Key = (string | number)[];

const ORDER: Record<FileSortField, { columns: string[]; index: string }> = {
  name: { columns: ["sort_key"], index: "entries_by_name" },
  size: { columns: ["size", "sort_key"], index: "entries_by_size" },
  modified: { columns: ["modified_at", "sort_key"], index: "entries_by_modified" },
};

/**
 * Every STEP-th order key of a folder segment, tagged with the folder's revision (bumped in
 * the same transaction as any change to its children, by this or any other process). SQLite's
 * OFFSET walks every skipped index entry; with these positions, `skip` 99,800 becomes a seek to
 * the key at position 99,712 plus a walk of 88 entries, so a deep page costs what the first does.
 * Building the positions reads the segment's index once, after each change to the folder.
 */
export class PositionCache {
  private entries = new Map<string, { revision: number; keys: Key[] }>();

  get(id: string, revision: number, build: () => Key[]): Key[] {
    const hit = this.entries.get(id);
    if (hit && hit.revision === revision) {
      // Re-insert to keep Map order least-recently-used first.
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit.keys;
    }
    const keys = build();
    this.entries.delete(id);
    this.entries.set(id, { revision, keys });
    if (this.entries.size > CACHED_FOLDERS) this.entries.delete(this.entries.keys().next().value!);
    return keys;
  }
}

/**
 * The rendered items of recently served pages. The key holds the folder's revision, which every
 * change to a child row renews in its own transaction (insert, rename, trash, restore, new content,
 * version, a child folder's count) from a counter that never repeats a value, even for a folder
 * recreated under a reused id; and the folder's path, which a rename above it changes. So a
 * stale page can never be served, even after another process wrote. Browsing is mostly re-reading
 * the same pages (scrolling back, several people in one project folder).
 */
export class PageCache {
  private pages = new Map<string, string>();
  private bytes = 0;

  constructor(private limit = 32 * 1024 * 1024) {}

  get maxBytes() {
    return this.limit;
  }

  get(key: string, render: () => string): string {
    const hit = this.pages.get(key);
    if (hit !== undefined) {
      this.pages.delete(key);
      this.pages.set(key, hit);
      return hit;
    }
    const text = render();
    if (text.length > this.limit) return text;
    this.pages.set(key, text);
    this.bytes += text.length;
    this.evict();
    return text;
  }

  /** A new budget; pages over it go at once (0 turns the cache off). */
  resize(maxBytes: number) {
    this.limit = maxBytes;
    this.evict();
  }

  private evict() {
    for (const [oldest, value] of this.pages) {
      if (this.bytes <= this.limit) break;
      this.pages.delete(oldest);
      this.bytes -= value.length;
    }
  }
}

const segmentSqlTexts = new Map<string, string>();

/** Memoized: building the text costs more than running the cached statement it names. */
function segmentSql(sort: FileSortField, order: SortOrder, seek: boolean) {
  const id = `${sort}:${order}:${seek}`;
  let text = segmentSqlTexts.get(id);
  if (!text) {
    text = buildSegmentSql(sort, order, seek);
    segmentSqlTexts.set(id, text);
  }
  return text;
}

function buildSegmentSql(sort: FileSortField, order: SortOrder, seek: boolean) {
  const { columns, index } = ORDER[sort];
  const dir = order === "asc" ? "ASC" : "DESC";
  const cmp = order === "asc" ? ">=" : "<=";
  const seekSql = seek
    ? ` AND (${columns.join(", ")}) ${cmp} (${columns.map(() => "?").join(", ")})`
    : "";
  return `SELECT ${ENTRY_JSON_COLUMNS} FROM entries INDEXED BY ${index}
    WHERE parent_id = ? AND is_file = ? AND trash_id IS NULL${seekSql}
    ORDER BY ${columns.map((c) => `${c} ${dir}`).join(", ")} LIMIT ? OFFSET ?`;
}

function checkpointSql(sort: FileSortField, order: SortOrder) {
  const { columns, index } = ORDER[sort];
  const dir = order === "asc" ? "ASC" : "DESC";
  return `SELECT ${columns.join(", ")} FROM (
      SELECT ${columns.join(", ")}, row_number() OVER (ORDER BY ${columns.map((c) => `${c} ${dir}`).join(", ")}) AS n
      FROM entries INDEXED BY ${index} WHERE parent_id = ? AND is_file = ? AND trash_id IS NULL)
    WHERE (n - 1) % ${STEP} = 0`;
}

export interface ListOptions {
  skip: number;
  count: number;
  sort: FileSortField;
  order: SortOrder;
}

function segment(
  repo: FilesRepository,
  positions: PositionCache,
  folder: EntryRow,
  isFile: 0 | 1,
  offset: number,
  limit: number,
  { sort, order }: ListOptions,
): unknown[][] {
  if (offset < DIRECT_OFFSET_LIMIT) {
    return repo.sql
      .get<unknown[]>(segmentSql(sort, order, false))
      .raw()
      .all(folder.id, isFile, limit, offset);
  }
  const keys = positions.get(
    `${folder.id}:${isFile}:${sort}:${order}`,
    folder.revision,
    () => repo.sql.get<Key>(checkpointSql(sort, order)).raw().all(folder.id, isFile) as Key[],
  );
  const key = keys[Math.floor(offset / STEP)];
  if (!key) return [];
  return repo.sql
    .get<unknown[]>(segmentSql(sort, order, true))
    .raw()
    .all(folder.id, isFile, ...key, limit, offset % STEP);
}

/**
 * Folders first, then files; each part in the requested order, then by name. `items` is the
 * JSON text of the FileEntry array (see ENTRY_JSON_COLUMNS).
 */
export function listFolder(
  repo: FilesRepository,
  caches: { positions: PositionCache; pages: PageCache },
  folder: EntryRow,
  opts: ListOptions,
): { items: string; total: number } {
  const folders = folder.folder_count;
  const total = folders + folder.file_count;
  const end = Math.min(opts.skip + opts.count, total);
  if (end <= opts.skip) return { items: "[]", total };
  const key = `${folder.id}:${folder.revision}:${opts.skip}:${opts.count}:${opts.sort}:${opts.order}:${folder.path}`;
  const items = caches.pages.get(key, () => {
    const rows: unknown[][] = [];
    if (opts.skip < folders) {
      rows.push(
        ...segment(
          repo,
          caches.positions,
          folder,
          0,
          opts.skip,
          Math.min(end, folders) - opts.skip,
          opts,
        ),
      );
    }
    if (end > folders) {
      const from = Math.max(opts.skip - folders, 0);
      rows.push(...segment(repo, caches.positions, folder, 1, from, end - folders - from, opts));
    }
    return `[${rows.map(entryJson).join(",")}]`;
  });
  return { items, total };
}
