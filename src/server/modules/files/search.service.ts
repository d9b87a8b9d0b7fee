import type { SearchResult } from "@/contract/files";
import type { Db } from "@/server/db/database";
import { type EntryRow, parentOf, subtreeRange, toFileEntry } from "./files.repository";
import {
  exactNames,
  prefixNames,
  type SearchScope,
  shortTextNames,
  trigramNames,
} from "./search.repository";

const bySortKey = (a: EntryRow, b: EntryRow) =>
  a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : 0;

/** The trigram index counts characters; `q.length` counts UTF-16 units, two per emoji. */
export const isShortQuery = (q: string) => [...q].length < 3;

export const searchScope = (scope: EntryRow): SearchScope => {
  const [lo, hi] = subtreeRange(scope.path);
  return { workspaceId: scope.workspace_id, lo, hi };
};

/**
 * A search's tiers gathered in rank order, each entry once, up to the limit: exact names, then
 * names that start with the text, then names that contain it, by name. Each engine runs the
 * tiers its own way and hands the rows here, so both rank alike.
 */
export class SearchRanking {
  readonly out: SearchResult[] = [];
  private readonly seen = new Set<number>();

  constructor(private readonly limit: number) {}

  get room() {
    return this.limit - this.out.length;
  }

  /** Substring candidates to ask for: the entries already taken may come back among them. */
  get substringWant() {
    return this.room + this.seen.size;
  }

  add(rows: EntryRow[], match: SearchResult["match"]) {
    for (const r of rows) {
      if (this.out.length >= this.limit || this.seen.has(r.id)) continue;
      this.seen.add(r.id);
      this.out.push({ ...toFileEntry(r), folder: parentOf(r.path), match });
    }
  }

  addSubstrings(rows: EntryRow[]) {
    this.add(rows.filter((r) => !this.seen.has(r.id)).sort(bySortKey), "substring");
  }
}

/**
 * Case-insensitive substring search over names in a folder and below, ranked: exact names,
 * then names that start with the text, then names that contain it; by name within a tier.
 */
export function searchFiles(db: Db, scope: EntryRow, q: string, limit: number): SearchResult[] {
  const where = searchScope(scope);
  const ranking = new SearchRanking(limit);
  ranking.add(exactNames(db, where, q, limit), "exact");
  if (ranking.room > 0) ranking.add(prefixNames(db, where, q, ranking.room), "prefix");
  if (ranking.room > 0) {
    const want = ranking.substringWant;
    ranking.addSubstrings(
      isShortQuery(q) ? shortTextNames(db, where, q, want) : trigramNames(db, where, q, want),
    );
  }
  return ranking.out;
}
