/** SQLite's migration 0022 (tus on S3 multipart: parts and the append lease), for PostgreSQL. */
export const uploadPartsSql = `
ALTER TABLE transfer_uploads ADD COLUMN multipart TEXT COLLATE "C";
ALTER TABLE transfer_uploads ADD COLUMN lease_owner TEXT COLLATE "C";
ALTER TABLE transfer_uploads ADD COLUMN lease_until BIGINT;
CREATE INDEX transfer_uploads_multipart_ended ON transfer_uploads (updated_at)
  WHERE multipart IS NOT NULL AND status <> 'uploading';
`;
