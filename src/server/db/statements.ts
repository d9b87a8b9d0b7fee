import type { Statement } from "better-sqlite3";
import type { Db } from "./database";

/**
 * better-sqlite3 compiles a statement on every prepare(); hot paths (every request's key check,
 * the dispatcher's poll) reuse one per SQL text. Not for statements that are iterated: a
 * statement being iterated cannot run again until the iteration ends.
 */
const cache = new WeakMap<Db, Map<string, Statement>>();
export function stmt<P extends unknown[] = unknown[], R = unknown>(
  db: Db,
  sql: string,
): Statement<P, R> {
  let byText = cache.get(db);
  if (!byText) {
    byText = new Map();
    cache.set(db, byText);
  }
  let s = byText.get(sql);
  if (!s) {
    s = db.prepare(sql);
    byText.set(sql, s);
  }
  return s as unknown as Statement<P, R>;
}
