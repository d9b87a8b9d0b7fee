import type { Migration } from ".";

// Times are integer milliseconds since the epoch; the API renders them as ISO 8601.
export const core: Migration = {
  version: 1,
  name: "core",
  up(db) {
    db.exec(`
      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE members (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        email TEXT NOT NULL,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
        joined_at INTEGER NOT NULL,
        removed_at INTEGER
      );
      CREATE UNIQUE INDEX members_active_email ON members (workspace_id, email) WHERE removed_at IS NULL;
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        member_id TEXT NOT NULL REFERENCES members(id),
        name TEXT,
        hint TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        scopes TEXT NOT NULL,
        expires_at INTEGER,
        revoked_at INTEGER,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER
      );
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
        unique_key TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        run_at INTEGER NOT NULL,
        lease_owner TEXT,
        lease_expires_at INTEGER,
        last_error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX jobs_due ON jobs (status, run_at);
      CREATE UNIQUE INDEX jobs_unique_pending ON jobs (unique_key)
        WHERE unique_key IS NOT NULL AND status IN ('queued', 'running');
      CREATE TABLE events (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        type TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX events_workspace ON events (workspace_id, id);
      CREATE INDEX events_workspace_type ON events (workspace_id, type, id);
    `);
  },
};
