import type { SearchResult } from "@/contract/files";
import {
  ENTRY_COLUMNS,
  type EntryRow,
  type FilesRepository,
  parentOf,
  subtreeRange,
  toFileEntry,
} from "./files.repository";

/**
 * Each tier looks at no more than this many index candidates, so a common term searched in a
 * small folder of a huge workspace stays bounded; documented in docs/api-decisions.md.
 */
export const SEARCH_CANDIDATE_LIMIT = 50_000;

const COLUMNS = ENTRY_COLUMNS.split(", ")
  .map((c) => `e.${c}`)
  .join(", ");
const IN_SCOPE = "e.workspace_id = ? AND e.trash_id IS NULL AND e.path >= ? AND e.path < ?";

const EXACT = `SELECT ${COLUMNS} FROM entries e INDEXED BY entries_name_nocase
  WHERE ${IN_SCOPE} AND e.name = ? COLLATE NOCASE
  ORDER BY e.path LIMIT ?`;

const PREFIX = `SELECT * FROM (
    SELECT ${COLUMNS} FROM entries e INDEXED BY entries_name_nocase
    WHERE e.workspace_id = ? AND e.trash_id IS NULL
      AND e.name >= ? COLLATE NOCASE AND e.name < ? COLLATE NOCASE AND e.name <> ? COLLATE NOCASE
    ORDER BY e.name COLLATE NOCASE LIMIT ${SEARCH_CANDIDATE_LIMIT})
  WHERE path >= ? AND path < ? LIMIT ?`;

// CROSS JOIN keeps the trigram index as the driver: SQLite must not start from entries.
const SUBSTRING = `SELECT ${COLUMNS} FROM (
    SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? LIMIT ${SEARCH_CANDIDATE_LIMIT}) f
  CROSS JOIN entries e ON e.id = f.rowid
  WHERE ${IN_SCOPE} LIMIT ?`;

// Trigrams need three characters; shorter text is matched on a bounded walk of the scope.
const SHORT_SUBSTRING = `SELECT * FROM (
    SELECT ${COLUMNS} FROM entries e INDEXED BY entries_live_path
    WHERE ${IN_SCOPE} LIMIT ${SEARCH_CANDIDATE_LIMIT})
  WHERE instr(lower(name), lower(?)) > 0 LIMIT ?`;

const bySortKey = (a: EntryRow, b: EntryRow) =>
  a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : 0;

/**
 * Case-insensitive substring search over names in a folder and below, ranked: exact names,
 * then names that start with the text, then names that contain it; by name within a tier.
 */
export function searchFiles(
  repo: FilesRepository,
  scope: EntryRow,
  q: string,
  limit: number,
): SearchResult[] {
  const ws = scope.workspace_id;
  const [lo, hi] = subtreeRange(scope.path);
  const out: SearchResult[] = [];
  const seen = new Set<number>();
  const add = (rows: EntryRow[], match: SearchResult["match"]) => {
    for (const r of rows) {
      if (out.length >= limit || seen.has(r.id)) continue;
      seen.add(r.id);
      out.push({ ...toFileEntry(r), folder: parentOf(r.path), match });
    }
  };

  add(repo.sql.get<EntryRow>(EXACT).all(ws, lo, hi, q, limit), "exact");
  if (out.length < limit) {
    add(
      repo.sql.get<EntryRow>(PREFIX).all(ws, q, `${q}\u{10FFFF}`, q, lo, hi, limit - out.length),
      "prefix",
    );
  }
  if (out.length < limit) {
    const want = limit - out.length + seen.size;
    // The trigram tokenizer counts characters; `q.length` counts UTF-16 units, two per emoji.
    const rows =
      [...q].length >= 3
        ? repo.sql.get<EntryRow>(SUBSTRING).all(`"${q.replaceAll('"', '""')}"`, ws, lo, hi, want)
        : repo.sql.get<EntryRow>(SHORT_SUBSTRING).all(ws, lo, hi, q, want);
    add(rows.filter((r) => !seen.has(r.id)).sort(bySortKey), "substring");
  }
  return out;
}
