import type { Migration } from ".";

// Time-coded notes: a share comment may point at a time or a PDF page of one of the share's
// files, and reviewers keep notes on an upload's files that do the same. An upload note's
// `anchor_path` is relative to the upload's folder, so an approval's move keeps it pointing at
// the file.
export const timeCodedNotes: Migration = {
  version: 18,
  name: "time-coded-notes",
  up(db) {
    db.exec(`
      ALTER TABLE share_comments ADD COLUMN anchor_path TEXT;
      ALTER TABLE share_comments ADD COLUMN anchor_time_ms INTEGER;
      ALTER TABLE share_comments ADD COLUMN anchor_page INTEGER;

      CREATE TABLE portal_upload_notes (
        id TEXT PRIMARY KEY,
        upload_id TEXT NOT NULL REFERENCES portal_uploads(id),
        body TEXT NOT NULL,
        anchor_path TEXT,
        anchor_time_ms INTEGER,
        anchor_page INTEGER,
        member_id TEXT,
        key_id TEXT,
        author_name TEXT,
        author_email TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX portal_upload_notes_upload ON portal_upload_notes (upload_id, id);
    `);
  },
};
