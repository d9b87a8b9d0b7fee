import type { FileEntry } from "@/contract/files";
import { baseName, nameSortKey } from "@/contract/rules";
import type { FolderView } from "@/web/lib/query-keys/files";

/** An entry known by path and kind (enough to find it in a listing). */
export interface EntryRef {
  path: string;
  type: FileEntry["type"];
}

/**
 * The service's order for `sort=name`: folders first in both directions, then names by their
 * natural key. Negative when `a` comes before `b`.
 */
export function compareInNameOrder(a: EntryRef, b: EntryRef, order: FolderView["order"]): number {
  if (a.type !== b.type) return a.type === "folder" ? -1 : 1;
  const ka = nameSortKey(baseName(a.path));
  const kb = nameSortKey(baseName(b.path));
  const byName = ka < kb ? -1 : ka > kb ? 1 : 0;
  return order === "desc" ? -byName : byName;
}
