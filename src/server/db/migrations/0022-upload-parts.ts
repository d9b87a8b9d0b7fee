import type { Migration } from ".";

// tus on S3 multipart (docs/scale-out.md, Uploads on S3): an upload's multipart state (the S3
// upload id, its parts and ETags, the saved SHA-256 state) sits on its row beside the offset, so
// any node resumes it without asking the bucket; the lease lets one request at a time append.
// The partial index holds only ended uploads whose bucket side is still to be let go (aborted,
// or its assembled object deleted after the commit copied it).
export const uploadParts: Migration = {
  version: 22,
  name: "upload-parts",
  up(db) {
    db.exec(`
      ALTER TABLE transfer_uploads ADD COLUMN multipart TEXT;
      ALTER TABLE transfer_uploads ADD COLUMN lease_owner TEXT;
      ALTER TABLE transfer_uploads ADD COLUMN lease_until INTEGER;
      CREATE INDEX transfer_uploads_multipart_ended ON transfer_uploads (updated_at)
        WHERE multipart IS NOT NULL AND status <> 'uploading';
    `);
  },
};
