import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { ENTRY_COLUMNS, type EntryRow } from "./files.repository";

/**
 * Each tier looks at no more than this many index candidates, so a common term searched in a
 * small folder of a huge workspace stays bounded; documented in docs/api-decisions.md.
 */
export const SEARCH_CANDIDATE_LIMIT = 50_000;

const COLUMNS = ENTRY_COLUMNS.split(", ")
  .map((c) => `e.${c}`)
  .join(", ");
const IN_SCOPE = "e.workspace_id = ? AND e.trash_id IS NULL AND e.path >= ? AND e.path < ?";

/** Where a search looks: a workspace's live entries between two paths (see subtreeRange). */
export interface SearchScope {
  workspaceId: string;
  lo: string;
  hi: string;
}

/** Names equal to `q`, ignoring ASCII case, in path order. */
export const exactNames = (db: Db, s: SearchScope, q: string, limit: number) =>
  stmt<unknown[], EntryRow>(
    db,
    `SELECT ${COLUMNS} FROM entries e INDEXED BY entries_name_nocase
     WHERE ${IN_SCOPE} AND e.name = ? COLLATE NOCASE
     ORDER BY e.path LIMIT ?`,
  ).all(s.workspaceId, s.lo, s.hi, q, limit);

/** Names that start with `q` (but are not `q`), ignoring ASCII case, in name order. */
export const prefixNames = (db: Db, s: SearchScope, q: string, limit: number) =>
  stmt<unknown[], EntryRow>(
    db,
    `SELECT * FROM (
       SELECT ${COLUMNS} FROM entries e INDEXED BY entries_name_nocase
       WHERE e.workspace_id = ? AND e.trash_id IS NULL
         AND e.name >= ? COLLATE NOCASE AND e.name < ? COLLATE NOCASE AND e.name <> ? COLLATE NOCASE
       ORDER BY e.name COLLATE NOCASE LIMIT ${SEARCH_CANDIDATE_LIMIT})
     WHERE path >= ? AND path < ? LIMIT ?`,
  ).all(s.workspaceId, q, `${q}\u{10FFFF}`, q, s.lo, s.hi, limit);

/**
 * Names that contain `q`, through the trigram index (three characters or more). The text is
 * quoted as one FTS string, so FTS syntax in it is taken literally. CROSS JOIN keeps the
 * trigram index as the driver: SQLite must not start from entries.
 */
export const trigramNames = (db: Db, s: SearchScope, q: string, limit: number) =>
  stmt<unknown[], EntryRow>(
    db,
    `SELECT ${COLUMNS} FROM (
       SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? LIMIT ${SEARCH_CANDIDATE_LIMIT}) f
     CROSS JOIN entries e ON e.id = f.rowid
     WHERE ${IN_SCOPE} LIMIT ?`,
  ).all(`"${q.replaceAll('"', '""')}"`, s.workspaceId, s.lo, s.hi, limit);

/** Names that contain `q`, for text too short for trigrams: a bounded walk of the scope. */
export const shortTextNames = (db: Db, s: SearchScope, q: string, limit: number) =>
  stmt<unknown[], EntryRow>(
    db,
    `SELECT * FROM (
       SELECT ${COLUMNS} FROM entries e INDEXED BY entries_live_path
       WHERE ${IN_SCOPE} LIMIT ${SEARCH_CANDIDATE_LIMIT})
     WHERE instr(lower(name), lower(?)) > 0 LIMIT ?`,
  ).all(s.workspaceId, s.lo, s.hi, q, limit);
