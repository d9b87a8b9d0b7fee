import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Db, openDatabase } from "@/server/db/database";
import { ApiError } from "@/server/lib/api-error";

/* Shared by the ports' contract suites, which seed SQLite and move its rows to PostgreSQL. */

/** A migrated SQLite database on a temporary data dir, removed with it by `close`. */
export function tempSqlite(prefix: string): { db: Db; close(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const db = openDatabase(path.join(dir, "consign.db"));
  return {
    db,
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A unit's refusal as the envelope would carry it: status, code, message and details. */
export async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError)
      return { status: err.status, code: err.code, message: err.message, details: err.details };
    throw err;
  }
  throw new Error("expected a refusal");
}

/** Ids (26 characters of Crockford base32, also inside messages) as `#n`, by first appearance. */
export function withoutIds(value: unknown): unknown {
  const seen = new Map<string, string>();
  const mark = (id: string) => {
    if (!seen.has(id)) seen.set(id, `#${seen.size}`);
    return seen.get(id)!;
  };
  return JSON.parse(
    JSON.stringify(value, (_k, v) =>
      typeof v === "string" ? v.replace(/\b[0-9a-hjkmnp-tv-z]{26}\b/g, mark) : v,
    ),
  );
}
