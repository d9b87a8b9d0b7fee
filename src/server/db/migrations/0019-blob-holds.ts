import type { Migration } from ".";

/*
 * A bucket's deletions wait here (the S3 blob store; the disk deletes at once). One row per
 * content: `due_at` is when the object may go if nothing references it by then; a stage of the
 * same content pushes it back (a hold) before it writes the object, and a deleter claims due rows
 * for a lease (`claimed_until`) while its DELETE is on the wire. docs/scale-out.md, Bytes on S3.
 */
export const blobHolds: Migration = {
  version: 19,
  name: "blob-holds",
  up(db) {
    db.exec(`
      CREATE TABLE blob_holds (
        sha256 TEXT PRIMARY KEY,
        due_at INTEGER NOT NULL,
        claimed_until INTEGER
      );
      CREATE INDEX blob_holds_due ON blob_holds (due_at);
    `);
  },
};
