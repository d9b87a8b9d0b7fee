import type { Migration } from ".";

/**
 * What makes a portal decision exact and known to its sender. `moved_from` and `move_job_id`:
 * where an approval moved an upload's folder from, and the move job, so undoing the approval
 * moves it back (or cancels a move not yet run). `note_to_sender`: the note the sender sees,
 * apart from the internal `review_note`; `decision_mail_id`: the decision's mail to the sender,
 * withdrawn while unsent if the decision is undone. `notify_sender`: which decisions mail the
 * sender (JSON `{approved, rejected}`).
 */
export const reviewDecisions: Migration = {
  version: 12,
  name: "review-decisions",
  up(db) {
    db.exec(`
      ALTER TABLE portal_uploads ADD COLUMN moved_from TEXT;
      ALTER TABLE portal_uploads ADD COLUMN move_job_id TEXT;
      ALTER TABLE portal_uploads ADD COLUMN note_to_sender TEXT;
      ALTER TABLE portal_uploads ADD COLUMN decision_mail_id TEXT;
      ALTER TABLE portals ADD COLUMN notify_sender TEXT NOT NULL
        DEFAULT '{"approved":false,"rejected":true}';
    `);
  },
};
