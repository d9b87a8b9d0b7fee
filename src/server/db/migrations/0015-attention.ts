import type { Migration } from ".";

/**
 * Indexes for the needs-attention summary (docs/api-decisions.md, Needs attention), which the
 * console polls every few seconds: each section reads only the rows that need attention. The
 * other sections use indexes their areas already have (uploads by status, shares by expiry,
 * endpoints by status).
 */
export const attention: Migration = {
  version: 15,
  name: "attention",
  up(db) {
    db.exec(`
      CREATE INDEX share_downloads_failed ON share_downloads (share_id)
        WHERE completed_at IS NOT NULL AND unverified_count > 0;
      CREATE INDEX file_operations_failed ON file_operations (workspace_id, finished_at)
        WHERE status = 'failed';
      CREATE INDEX bulk_jobs_failed ON bulk_jobs (workspace_id, finished_at)
        WHERE status = 'failed' OR (status = 'completed' AND failed > 0);
    `);
  },
};
