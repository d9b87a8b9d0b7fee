import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { ensurePrivateDir, makePrivate, PRIVATE_FILE_MODE } from "@/server/lib/private-files";
import { type Migration, migrations } from "./migrations";

export type Db = Database.Database;

/** Opens (creating if needed) the service database and brings its schema up to date. */
export function openDatabase(file: string): Db {
  if (file !== ":memory:") {
    ensurePrivateDir(path.dirname(file));
    // SQLite gives the -wal and -shm files the database file's mode, so this keeps all three
    // private; those made by an older version are tightened too.
    fs.closeSync(fs.openSync(file, "a", PRIVATE_FILE_MODE));
    for (const f of [file, `${file}-wal`, `${file}-shm`]) makePrivate(f);
  }
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  // The CLI writes while the service runs; wait for the writer instead of failing.
  db.pragma("busy_timeout = 5000");
  db.pragma("synchronous = NORMAL");
  db.pragma("cache_size = -65536");
  db.pragma("temp_store = MEMORY");
  migrate(db);
  return db;
}

export function migrate(db: Db, list: readonly Migration[] = migrations) {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const isApplied = db.prepare("SELECT 1 FROM schema_migrations WHERE version = ?").pluck();
  for (const m of list) {
    // A read first, so that opening an up-to-date database takes no write lock.
    if (isApplied.get(m.version)) continue;
    db.transaction(() => {
      // Again under the write lock: another process (the service and a CLI starting together)
      // may have applied it since the read above.
      if (isApplied.get(m.version)) return;
      m.up(db);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        m.version,
        m.name,
        Date.now(),
      );
    }).immediate();
  }
}
