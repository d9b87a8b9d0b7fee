import type { Migration } from ".";

/**
 * The file tree, sized for a million entries. Entries keep both `parent_id` (listing) and the
 * full `path` (lookup, subtree ranges for manifest, search scope, trash and delete). A trashed
 * subtree keeps its rows, marked with `trash_id`; every index that serves live reads is partial
 * on `trash_id IS NULL`, so trashed rows cost live queries nothing.
 */
export const files: Migration = {
  version: 2,
  name: "files",
  up(db) {
    db.exec(`
      CREATE TABLE blobs (
        sha256 TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        ref_count INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX blobs_unreferenced ON blobs (sha256) WHERE ref_count <= 0;

      CREATE TABLE entries (
        id INTEGER PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        parent_id INTEGER,
        name TEXT NOT NULL,
        -- Natural, case-insensitive order key, unique among siblings (see sortKey()).
        sort_key TEXT NOT NULL,
        path TEXT NOT NULL,
        is_file INTEGER NOT NULL CHECK (is_file IN (0, 1)),
        size INTEGER NOT NULL DEFAULT 0,
        mime TEXT,
        sha256 TEXT,
        folder_count INTEGER NOT NULL DEFAULT 0,
        file_count INTEGER NOT NULL DEFAULT 0,
        version_count INTEGER NOT NULL DEFAULT 0,
        -- Bumped whenever the children's order may change; keys the deep-page position cache.
        revision INTEGER NOT NULL DEFAULT 0,
        trash_id TEXT,
        created_at INTEGER NOT NULL,
        modified_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX entries_live_path ON entries (workspace_id, path) WHERE trash_id IS NULL;
      CREATE INDEX entries_by_name ON entries (parent_id, is_file, sort_key) WHERE trash_id IS NULL;
      CREATE INDEX entries_by_size ON entries (parent_id, is_file, size, sort_key) WHERE trash_id IS NULL;
      CREATE INDEX entries_by_modified ON entries (parent_id, is_file, modified_at, sort_key) WHERE trash_id IS NULL;
      CREATE INDEX entries_name_nocase ON entries (workspace_id, name COLLATE NOCASE) WHERE trash_id IS NULL;
      CREATE INDEX entries_trashed ON entries (trash_id) WHERE trash_id IS NOT NULL;

      CREATE VIRTUAL TABLE entries_fts USING fts5(
        name, content='entries', content_rowid='id', tokenize='trigram case_sensitive 0'
      );
      CREATE TRIGGER entries_fts_insert AFTER INSERT ON entries BEGIN
        INSERT INTO entries_fts (rowid, name) VALUES (new.id, new.name);
      END;
      CREATE TRIGGER entries_fts_delete AFTER DELETE ON entries BEGIN
        INSERT INTO entries_fts (entries_fts, rowid, name) VALUES ('delete', old.id, old.name);
      END;
      CREATE TRIGGER entries_fts_rename AFTER UPDATE OF name ON entries BEGIN
        INSERT INTO entries_fts (entries_fts, rowid, name) VALUES ('delete', old.id, old.name);
        INSERT INTO entries_fts (rowid, name) VALUES (new.id, new.name);
      END;

      CREATE TABLE file_versions (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        entry_id INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        mime TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX file_versions_entry ON file_versions (entry_id, created_at);

      CREATE TABLE trash_items (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        entry_id INTEGER NOT NULL,
        path TEXT NOT NULL,
        name TEXT NOT NULL,
        is_file INTEGER NOT NULL,
        size_bytes INTEGER,
        deleted_at INTEGER NOT NULL,
        purge_at INTEGER NOT NULL
      );
      CREATE INDEX trash_items_workspace ON trash_items (workspace_id, deleted_at);
      CREATE INDEX trash_items_purge ON trash_items (purge_at);
    `);
  },
};
