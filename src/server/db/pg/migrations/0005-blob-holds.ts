/** SQLite's migration 0019 (the S3 blob store's deferred deletions), for PostgreSQL. */
export const blobHoldsSql = `
CREATE TABLE blob_holds (
  sha256 TEXT COLLATE "C" PRIMARY KEY,
  due_at BIGINT NOT NULL,
  claimed_until BIGINT
);
CREATE INDEX blob_holds_due ON blob_holds (due_at);
`;
