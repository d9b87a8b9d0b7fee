import type { FileSortField, SortOrder } from "@/contract/files";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { toIso } from "@/server/lib/clock";

/** One position in a folder segment's order: the values of the order's columns. */
export type OrderKey = (string | number)[];

export const ORDER: Record<FileSortField, { columns: string[]; index: string }> = {
  name: { columns: ["sort_key"], index: "entries_by_name" },
  size: { columns: ["size", "sort_key"], index: "entries_by_size" },
  modified: { columns: ["modified_at", "sort_key"], index: "entries_by_modified" },
};

/**
 * A FileEntry rendered by SQLite, without its two dates (see `entryJson`). Listing is the
 * hottest path of the service: building the JSON text in C skips converting every column to a
 * JS value, building an object and stringifying it again, which is most of a 200-entry page.
 */
const ENTRY_JSON_COLUMNS = `json_object('name', name, 'path', path, 'type', iif(is_file, 'file', 'folder'),
  'sizeBytes', iif(is_file, size, NULL), 'mimeType', iif(is_file, mime, NULL), 'sha256', iif(is_file, sha256, NULL),
  'childCount', iif(is_file, NULL, folder_count + file_count), 'versionCount', version_count), created_at, modified_at`;

/** One row of ENTRY_JSON_COLUMNS as FileEntry JSON text. */
export const entryJson = (r: unknown[]) =>
  `{"createdAt":"${toIso(r[1] as number)}","modifiedAt":"${toIso(r[2] as number)}",${(r[0] as string).slice(1)}`;

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

/**
 * Rows of one segment of a folder (its folders, or its files) in the given order, as raw
 * ENTRY_JSON_COLUMNS rows: from `after` (an order key, inclusive) when given, else from the
 * start, skipping `offset` index entries.
 */
export function segmentRows(
  db: Db,
  folderId: number,
  isFile: 0 | 1,
  sort: FileSortField,
  order: SortOrder,
  after: OrderKey | null,
  limit: number,
  offset: number,
): unknown[][] {
  const statement = stmt<unknown[], unknown[]>(db, segmentSql(sort, order, after !== null)).raw();
  return after
    ? statement.all(folderId, isFile, ...after, limit, offset)
    : statement.all(folderId, isFile, limit, offset);
}

/** Every `step`-th order key of a folder segment, from the first. */
export function everyNthKey(
  db: Db,
  folderId: number,
  isFile: 0 | 1,
  sort: FileSortField,
  order: SortOrder,
  step: number,
): OrderKey[] {
  const { columns, index } = ORDER[sort];
  const dir = order === "asc" ? "ASC" : "DESC";
  return stmt<[number, 0 | 1, number], OrderKey>(
    db,
    `SELECT ${columns.join(", ")} FROM (
      SELECT ${columns.join(", ")}, row_number() OVER (ORDER BY ${columns.map((c) => `${c} ${dir}`).join(", ")}) AS n
      FROM entries INDEXED BY ${index} WHERE parent_id = ? AND is_file = ? AND trash_id IS NULL)
    WHERE (n - 1) % ? = 0`,
  )
    .raw()
    .all(folderId, isFile, step) as OrderKey[];
}
