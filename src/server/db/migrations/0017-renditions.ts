import type { Migration } from ".";

/*
 * Media renditions (proxies) and what was probed of the content they are made from. Both are
 * keyed by content (the blob's SHA-256), never by a file: a copy, move, rename, version restore
 * or a duplicate upload finds the renditions already there. A rendition is one row per content,
 * kind, page and render settings (the settings string names everything its bytes depend on, so
 * changing them makes new rows beside the old). `workspace_id` and `path` say who asked first,
 * for the job centre's list; the bytes are under DATA_DIR/cache/renditions.
 */
export const renditions: Migration = {
  version: 17,
  name: "renditions",
  up(db) {
    db.exec(`
      CREATE TABLE media_probes (
        sha256 TEXT PRIMARY KEY,
        media TEXT,
        fps REAL,
        duration_ms INTEGER,
        width INTEGER,
        height INTEGER,
        has_audio INTEGER NOT NULL DEFAULT 0,
        page_count INTEGER,
        probed_at INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE renditions (
        id TEXT PRIMARY KEY,
        sha256 TEXT NOT NULL,
        kind TEXT NOT NULL,
        page INTEGER NOT NULL DEFAULT 0,
        settings TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'rendering', 'ready', 'failed')),
        progress REAL,
        error TEXT,
        width INTEGER,
        height INTEGER,
        duration_ms INTEGER,
        size_bytes INTEGER,
        layout TEXT,
        workspace_id TEXT,
        path TEXT,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER,
        updated_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX renditions_content ON renditions (sha256, kind, page, settings);
      CREATE INDEX renditions_recent ON renditions (workspace_id, updated_at);
    `);
  },
};
