import type { Migration } from ".";

/**
 * Move and copy jobs (spec rows 16-18; docs/api-decisions.md, Move and copy). The job row and its
 * items are the whole plan: each item's outcome, the counters and the job's progress are written
 * in the transaction that does the item, so a job re-claimed after a crash resumes at the first
 * pending item and never does one twice.
 */
export const operations: Migration = {
  version: 5,
  name: "operations",
  up(db) {
    db.exec(`
      CREATE TABLE file_operations (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        kind TEXT NOT NULL CHECK (kind IN ('move', 'copy')),
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
        destination TEXT NOT NULL,
        overwrite INTEGER NOT NULL,
        files_total INTEGER NOT NULL,
        files_done INTEGER NOT NULL DEFAULT 0,
        bytes_total INTEGER NOT NULL,
        bytes_done INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        -- 1 once the job's closing event is written (a job re-claimed after that writes none).
        reported INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER
      );
      CREATE INDEX file_operations_workspace ON file_operations (workspace_id, created_at);
      CREATE INDEX file_operations_active ON file_operations (workspace_id, created_at)
        WHERE status IN ('queued', 'running');

      CREATE TABLE file_operation_items (
        operation_id TEXT NOT NULL REFERENCES file_operations(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        path TEXT NOT NULL,
        is_file INTEGER NOT NULL,
        files INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        -- overwrite, skip or keepBoth when the destination is taken; NULL: a conflict fails the job.
        choice TEXT,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'skipped')),
        destination_path TEXT,
        -- A big folder copied over several transactions (tree-copy.ts, staged copies): 'staging'
        -- while its hidden copy grows, 'staged' once whole, 'purging' while a move's hidden
        -- originals are deleted; its name there; the last path copied.
        stage_state TEXT CHECK (stage_state IN ('staging', 'staged', 'purging')),
        stage_name TEXT,
        stage_cursor TEXT,
        PRIMARY KEY (operation_id, idx)
      ) WITHOUT ROWID;
    `);
  },
};
