import type { Migration } from ".";

/**
 * Bulk jobs (trash, delete, restore, purge over a selection; docs/api-decisions.md, Bulk work).
 * The row is the job's whole state: `cursor` is where the next batch starts (a name for "all of
 * a folder", an id for a trash filter, an index for a listed selection), and every batch writes
 * its outcome, the counters and the cursor in one transaction, so a restart never redoes an item.
 * `bulk_job_trash` remembers each trash item a trash job made, which is what its undo restores.
 */
export const bulkJobs: Migration = {
  version: 6,
  name: "bulk-jobs",
  up(db) {
    db.exec(`
      CREATE TABLE bulk_jobs (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        action TEXT NOT NULL,
        status TEXT NOT NULL,
        selection TEXT NOT NULL,
        folder_id INTEGER,
        total INTEGER,
        done INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        failures TEXT NOT NULL DEFAULT '[]',
        sample TEXT NOT NULL DEFAULT '{"paths":[],"itemIds":[]}',
        cursor TEXT,
        undo_of TEXT,
        undone_by TEXT,
        error TEXT,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER
      );
      CREATE INDEX bulk_jobs_workspace ON bulk_jobs (workspace_id, created_at);

      CREATE TABLE bulk_job_trash (
        job_id TEXT NOT NULL,
        trash_id TEXT NOT NULL,
        PRIMARY KEY (job_id, trash_id)
      ) WITHOUT ROWID;
    `);
  },
};
