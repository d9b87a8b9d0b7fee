import type { SearchResult } from "@/contract/files";
import type { Db } from "@/server/db/database";
import { type EntryRow, parentOf, subtreeRange, toFileEntry } from "./files.repository";
import { exactNames, prefixNames, shortTextNames, trigramNames } from "./search.repository";

const bySortKey = (a: EntryRow, b: EntryRow) =>
  a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : 0;

/**
 * Case-insensitive substring search over names in a folder and below, ranked: exact names,
 * then names that start with the text, then names that contain it; by name within a tier.
 */
export function searchFiles(db: Db, scope: EntryRow, q: string, limit: number): SearchResult[] {
  const [lo, hi] = subtreeRange(scope.path);
  const where = { workspaceId: scope.workspace_id, lo, hi };
  const out: SearchResult[] = [];
  const seen = new Set<number>();
  const add = (rows: EntryRow[], match: SearchResult["match"]) => {
    for (const r of rows) {
      if (out.length >= limit || seen.has(r.id)) continue;
      seen.add(r.id);
      out.push({ ...toFileEntry(r), folder: parentOf(r.path), match });
    }
  };

  add(exactNames(db, where, q, limit), "exact");
  if (out.length < limit) add(prefixNames(db, where, q, limit - out.length), "prefix");
  if (out.length < limit) {
    const want = limit - out.length + seen.size;
    // The trigram tokenizer counts characters; `q.length` counts UTF-16 units, two per emoji.
    const rows =
      [...q].length >= 3 ? trigramNames(db, where, q, want) : shortTextNames(db, where, q, want);
    add(rows.filter((r) => !seen.has(r.id)).sort(bySortKey), "substring");
  }
  return out;
}
