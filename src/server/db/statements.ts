import type { Statement } from "better-sqlite3";
import type { Db } from "./database";

/**
 * The one way repositories prepare SQL: better-sqlite3 compiles a statement on every prepare(),
 * so each SQL text is compiled once per connection and reused (every request's key check, the
 * dispatcher's and the job runner's polls). SQL built from optional filters is fine: each
 * combination is its own text, prepared once. Not for statements that are iterated: a statement
 * being iterated cannot run again until the iteration ends, so those are prepared where they
 * are iterated, with a comment saying so.
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
