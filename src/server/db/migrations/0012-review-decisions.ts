import type { Migration } from ".";

/**
 * What makes a portal decision exact and known to its sender. `moved_from` and `move_job_id`:
 * where an approval moved an upload's folder from, and the move job, so undoing the approval
 * moves it back (or cancels a move not yet run).
 */
export const reviewDecisions: Migration = {
  version: 12,
  name: "review-decisions",
  up(db) {
    db.exec(`
      ALTER TABLE portal_uploads ADD COLUMN moved_from TEXT;
      ALTER TABLE portal_uploads ADD COLUMN move_job_id TEXT;
    `);
  },
};
