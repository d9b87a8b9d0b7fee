import type { PgClient } from "@/server/db/pg/pool";
import { ENTRY_COLUMNS, type EntryRow } from "./files.repository";
import { SEARCH_CANDIDATE_LIMIT, type SearchScope } from "./search.repository";
import { isShortQuery, SearchRanking } from "./search.service";

/*
 * The search tiers of search.repository.ts on PostgreSQL, answering what SQLite answers for the
 * same rows (files-store.test.ts). Two traps: a parameter's collation is the database's
 * default, not the column's, so `lower($1)` would fold non-ASCII letters where SQLite's NOCASE
 * and lower() fold ASCII only: every parameter that is folded or compared says COLLATE "C".
 * And LIKE would read `%` and `_` in the text as wildcards: substrings go through strpos() or
 * an escaped regular expression.
 */

const COLUMNS = ENTRY_COLUMNS.split(", ")
  .map((c) => `e.${c}`)
  .join(", ");
const IN_SCOPE = "e.workspace_id = $1 AND e.trash_id IS NULL AND e.path >= $2 AND e.path < $3";
const Q = 'lower($4::text COLLATE "C")';

/** Names equal to `q`, ignoring ASCII case (SQLite's NOCASE), in path order. */
const EXACT = `SELECT ${COLUMNS} FROM entries e
  WHERE ${IN_SCOPE} AND lower(e.name) = ${Q} ORDER BY e.path LIMIT $5`;

/**
 * Names that start with `q` (but are not `q`), ignoring ASCII case, in that order; ties by id as
 * SQLite's index keeps them. The candidates are bounded before the scope is applied, as there.
 */
const PREFIX = `SELECT * FROM (
    SELECT ${COLUMNS} FROM entries e
    WHERE e.workspace_id = $1 AND e.trash_id IS NULL
      AND lower(e.name) >= ${Q} AND lower(e.name) < ${Q} || chr(1114111) AND lower(e.name) <> ${Q}
    ORDER BY lower(e.name), e.id LIMIT ${SEARCH_CANDIDATE_LIMIT}) s
  WHERE path >= $2 AND path < $3 ORDER BY lower(name), id LIMIT $5`;

/**
 * Names that contain `q` (three characters or more) through the pg_trgm index, in id order as
 * FTS5 hands out rowids; the pattern is built by `containsPattern`.
 */
const TRIGRAM = `WITH f AS MATERIALIZED (
    SELECT id FROM entries WHERE trash_id IS NULL AND name ~ $4 LIMIT ${SEARCH_CANDIDATE_LIMIT})
  SELECT ${COLUMNS} FROM f JOIN entries e ON e.id = f.id WHERE ${IN_SCOPE} ORDER BY e.id LIMIT $5`;

/** Names that contain `q`, for text too short for trigrams: a bounded walk of the scope by path. */
const SHORT = `SELECT * FROM (
    SELECT ${COLUMNS} FROM entries e WHERE ${IN_SCOPE} ORDER BY e.path LIMIT ${SEARCH_CANDIDATE_LIMIT}) s
  WHERE strpos(lower(name), ${Q}) > 0 ORDER BY path LIMIT $5`;

const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}]/;

/**
 * A regular expression matching names that contain `q` with each letter in either case: what
 * FTS5's trigram tokenizer (`case_sensitive 0`) matches, which folds letters beyond ASCII too.
 * Everything else is literal. A letter whose other case is more than one character (ß, İ)
 * matches only itself.
 */
export function containsPattern(q: string): string {
  let out = "";
  for (const ch of q) {
    const forms = new Set(
      [ch, ch.toLowerCase(), ch.toUpperCase()].filter((f) => [...f].length === 1),
    );
    if (forms.size > 1) out += `[${[...forms].join("")}]`;
    else out += REGEX_SPECIAL.test(ch) ? `\\${ch}` : ch;
  }
  return out;
}

async function tier(c: PgClient, sql: string, s: SearchScope, text: string, limit: number) {
  const { rows } = await c.query<EntryRow>(sql, [s.workspaceId, s.lo, s.hi, text, limit]);
  return rows;
}

/** search.service.ts's searchFiles on PostgreSQL: the same tiers, ranked by the same code. */
export async function searchFilesPg(c: PgClient, where: SearchScope, q: string, limit: number) {
  const ranking = new SearchRanking(limit);
  ranking.add(await tier(c, EXACT, where, q, limit), "exact");
  if (ranking.room > 0) ranking.add(await tier(c, PREFIX, where, q, ranking.room), "prefix");
  if (ranking.room > 0) {
    const want = ranking.substringWant;
    ranking.addSubstrings(
      isShortQuery(q)
        ? await tier(c, SHORT, where, q, want)
        : await tier(c, TRIGRAM, where, containsPattern(q), want),
    );
  }
  return ranking.out;
}
