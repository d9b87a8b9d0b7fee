import type { FileSortField, SortOrder } from "@/contract/files";
import type { Db } from "@/server/db/database";
import type { EntryRow } from "./files.repository";
import { entryJson, everyNthKey, type OrderKey, segmentRows } from "./listing.repository";

/** Spacing of the remembered positions: a deep page walks at most this many extra index entries. */
const STEP = 128;
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

export interface ListOptions {
  skip: number;
  count: number;
  sort: FileSortField;
  order: SortOrder;
}

function segment(
  db: Db,
  positions: PositionCache,
  folder: EntryRow,
  isFile: 0 | 1,
  offset: number,
  limit: number,
  { sort, order }: ListOptions,
): unknown[][] {
  if (offset < DIRECT_OFFSET_LIMIT) {
    return segmentRows(db, folder.id, isFile, sort, order, null, limit, offset);
  }
  const keys = positions.get(`${folder.id}:${isFile}:${sort}:${order}`, folder.revision, () =>
    everyNthKey(db, folder.id, isFile, sort, order, STEP),
  );
  const key = keys[Math.floor(offset / STEP)];
  if (!key) return [];
  return segmentRows(db, folder.id, isFile, sort, order, key, limit, offset % STEP);
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
          db,
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
      rows.push(...segment(db, caches.positions, folder, 1, from, end - folders - from, opts));
    }
    return `[${rows.map(entryJson).join(",")}]`;
  });
  return { items, total };
}
