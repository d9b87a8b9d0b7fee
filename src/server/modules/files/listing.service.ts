import type { FileSortField, SortOrder } from "@/contract/files";
import type { Db } from "@/server/db/database";
import type { EntryRow } from "./files.repository";
import { entryJson, everyNthKey, type OrderKey, segmentRows } from "./listing.repository";

/** Spacing of the remembered positions: a deep page walks at most this many extra index entries. */
export const STEP = 128;
/** Below this offset, walking the index is cheaper than keeping positions. */
const DIRECT_OFFSET_LIMIT = 2048;
const CACHED_FOLDERS = 256;

/**
 * Every STEP-th order key of a folder segment, tagged with the folder's revision (bumped in
 * the same transaction as any change to its children, by this or any other process). SQLite's
 * OFFSET walks every skipped index entry; with these positions, `skip` 99,800 becomes a seek to
 * the key at position 99,712 plus a walk of 88 entries, so a deep page costs what the first does.
 * Building the positions reads the segment's index once, after each change to the folder.
 */
export class PositionCache {
  private entries = new Map<string, { revision: number; keys: OrderKey[] }>();

  get(id: string, revision: number, build: () => OrderKey[]): OrderKey[] {
    return this.peek(id, revision) ?? this.put(id, revision, build());
  }

  /** The remembered keys, if they are of this revision (an engine that builds them async). */
  peek(id: string, revision: number): OrderKey[] | undefined {
    const hit = this.entries.get(id);
    if (!hit || hit.revision !== revision) return undefined;
    // Re-insert to keep Map order least-recently-used first.
    this.entries.delete(id);
    this.entries.set(id, hit);
    return hit.keys;
  }

  put(id: string, revision: number, keys: OrderKey[]): OrderKey[] {
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
    return this.peek(key) ?? this.put(key, render());
  }

  /** A served page, if cached (an engine that renders async: peek, then put). */
  peek(key: string): string | undefined {
    const hit = this.pages.get(key);
    if (hit !== undefined) {
      this.pages.delete(key);
      this.pages.set(key, hit);
    }
    return hit;
  }

  put(key: string, text: string): string {
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

export interface ListOptions {
  skip: number;
  count: number;
  sort: FileSortField;
  order: SortOrder;
}

/** One run of a page: `limit` entries from `offset` of the folder's folders (0) or files (1). */
export interface SegmentRun {
  isFile: 0 | 1;
  offset: number;
  limit: number;
}

/** A page is folders first, then files: its runs in each part (none past the end). */
export function pageRuns(folder: EntryRow, { skip, count }: ListOptions): SegmentRun[] {
  const folders = folder.folder_count;
  const end = Math.min(skip + count, folders + folder.file_count);
  const runs: SegmentRun[] = [];
  if (end <= skip) return runs;
  if (skip < folders) runs.push({ isFile: 0, offset: skip, limit: Math.min(end, folders) - skip });
  if (end > folders) {
    const from = Math.max(skip - folders, 0);
    runs.push({ isFile: 1, offset: from, limit: end - folders - from });
  }
  return runs;
}

/** The served page's cache key: see PageCache for why the revision and path make it safe. */
export const pageKey = (folder: EntryRow, o: ListOptions) =>
  `${folder.id}:${folder.revision}:${o.skip}:${o.count}:${o.sort}:${o.order}:${folder.path}`;

/**
 * How a run starts: below DIRECT_OFFSET_LIMIT by walking the index (`seek` null); deeper, from
 * the remembered key at `seek` (an index into the run's positions) plus `walk` entries.
 */
export function runStart(offset: number): { seek: number | null; walk: number } {
  if (offset < DIRECT_OFFSET_LIMIT) return { seek: null, walk: offset };
  return { seek: Math.floor(offset / STEP), walk: offset % STEP };
}

/** The positions' cache key of one run's order. */
export const positionsKey = (
  folder: EntryRow,
  isFile: 0 | 1,
  o: Pick<ListOptions, "sort" | "order">,
) => `${folder.id}:${isFile}:${o.sort}:${o.order}`;

function segment(
  db: Db,
  positions: PositionCache,
  folder: EntryRow,
  { isFile, offset, limit }: SegmentRun,
  { sort, order }: ListOptions,
): unknown[][] {
  const { seek, walk } = runStart(offset);
  if (seek === null) return segmentRows(db, folder.id, isFile, sort, order, null, limit, walk);
  const keys = positions.get(positionsKey(folder, isFile, { sort, order }), folder.revision, () =>
    everyNthKey(db, folder.id, isFile, sort, order, STEP),
  );
  const key = keys[seek];
  if (!key) return [];
  return segmentRows(db, folder.id, isFile, sort, order, key, limit, walk);
}

/**
 * Folders first, then files; each part in the requested order, then by name. `items` is the
 * JSON text of the FileEntry array, rendered by SQLite (see listing.repository.ts).
 */
export function listFolder(
  db: Db,
  caches: { positions: PositionCache; pages: PageCache },
  folder: EntryRow,
  opts: ListOptions,
): { items: string; total: number } {
  const total = folder.folder_count + folder.file_count;
  const runs = pageRuns(folder, opts);
  if (runs.length === 0) return { items: "[]", total };
  const items = caches.pages.get(pageKey(folder, opts), () => {
    const rows =
      runs.length === 1
        ? segment(db, caches.positions, folder, runs[0]!, opts)
        : runs.flatMap((run) => segment(db, caches.positions, folder, run, opts));
    return `[${rows.map(entryJson).join(",")}]`;
  });
  return { items, total };
}
