import type { Migration } from ".";

/**
 * One counter that every folder revision is drawn from. Entry ids are reused (SQLite gives a new
 * row the id of a deleted highest row), so a per-folder count restarting at 0 let a folder
 * recreated at the same path repeat its predecessor's (id, revision, path) and be served its
 * cached pages. A counter that only grows makes each revision name one state of one folder.
 * It starts above every revision already stored, so no new revision repeats an old one.
 */
export const folderRevisions: Migration = {
  version: 4,
  name: "folder-revisions",
  up(db) {
    db.exec(`
      CREATE TABLE revision_counter (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        value INTEGER NOT NULL
      );
      INSERT INTO revision_counter (id, value) SELECT 1, coalesce(max(revision), 0) FROM entries;
    `);
  },
};
