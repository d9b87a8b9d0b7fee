import type { Migration } from ".";

/**
 * Transfers (spec: Transfers; docs/api-decisions.md, Transfers). The service writes `transfers`
 * and `transfer_paths`; the data node (in this process or its own, on the same data dir) reads
 * them to check a token and writes `transfer_uploads` as tus uploads come in. An upload's bytes
 * stay in the node's staging area until the last byte is verified; only then does one
 * transaction add the file to `entries` and count it here, so a listing never shows half a file.
 * `usage_records` is what a transfer moved, against its `usage_id`, for the usage area.
 * `protection` on a file: how its stored bytes are encrypted (content protection), else NULL.
 */
export const transfers: Migration = {
  version: 7,
  name: "transfers",
  up(db) {
    db.exec(`
      CREATE TABLE transfers (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        key_id TEXT,
        direction TEXT NOT NULL CHECK (direction IN ('send', 'receive')),
        client TEXT NOT NULL,
        engine TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'paused', 'completed', 'failed', 'cancelled')),
        streams INTEGER NOT NULL,
        priority TEXT NOT NULL,
        usage_id TEXT NOT NULL,
        files_total INTEGER,
        files_done INTEGER NOT NULL DEFAULT 0,
        bytes_total INTEGER,
        bytes_done INTEGER NOT NULL DEFAULT 0,
        rate_kbps REAL,
        avg_rate_kbps REAL,
        error_code TEXT,
        error_message TEXT,
        source_root TEXT NOT NULL DEFAULT '',
        destination_root TEXT NOT NULL DEFAULT '',
        file_count INTEGER,
        total_bytes INTEGER,
        growing_file_wait INTEGER,
        deliver_to TEXT NOT NULL DEFAULT '[]',
        -- Salt of the key derived from the content protection password; the password is never kept.
        protection_salt TEXT,
        options TEXT NOT NULL DEFAULT '{}',
        device_id TEXT,
        share_id TEXT,
        portal_id TEXT,
        paths_count INTEGER NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        token_expires_at INTEGER NOT NULL,
        token_used_at INTEGER,
        last_activity_at INTEGER,
        files_committed INTEGER NOT NULL DEFAULT 0,
        bytes_committed INTEGER NOT NULL DEFAULT 0,
        bytes_served INTEGER NOT NULL DEFAULT 0,
        reported INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER
      );
      CREATE INDEX transfers_workspace ON transfers (workspace_id, created_at);
      CREATE INDEX transfers_active ON transfers (workspace_id, created_at)
        WHERE status IN ('queued', 'running', 'paused');

      CREATE TABLE transfer_paths (
        transfer_id TEXT NOT NULL REFERENCES transfers(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        source TEXT NOT NULL,
        destination TEXT NOT NULL,
        PRIMARY KEY (transfer_id, idx)
      ) WITHOUT ROWID;

      CREATE TABLE transfer_uploads (
        id TEXT PRIMARY KEY,
        transfer_id TEXT NOT NULL REFERENCES transfers(id),
        workspace_id TEXT NOT NULL,
        path TEXT NOT NULL,
        size INTEGER,
        offset INTEGER NOT NULL DEFAULT 0,
        sha256 TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL CHECK (status IN ('uploading', 'committed', 'failed', 'cancelled')),
        error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX transfer_uploads_transfer ON transfer_uploads (transfer_id, status);
      CREATE INDEX transfer_uploads_expiry ON transfer_uploads (expires_at) WHERE status = 'uploading';

      CREATE TABLE usage_records (
        id INTEGER PRIMARY KEY,
        usage_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        transfer_id TEXT NOT NULL,
        direction TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        recorded_at INTEGER NOT NULL
      );
      CREATE INDEX usage_records_usage ON usage_records (usage_id);
      CREATE INDEX usage_records_workspace ON usage_records (workspace_id, recorded_at);

      ALTER TABLE entries ADD COLUMN protection TEXT;
      ALTER TABLE file_versions ADD COLUMN protection TEXT;
    `);
  },
};
