import type { Migration } from ".";

/**
 * Upload portals (spec: Upload portal, Portal upload; docs/api-decisions.md, Portals). A portal's
 * fields, rules, spec and invites are JSON: they are read and written whole, never queried. An
 * upload is a send transfer (client `portal`) into a folder of its own; its row keeps who sent
 * it, the fields' values, the first files (`files_shown`, written when it lands, so the review
 * queue reads one row per upload), the media check and the review. Portals are revoked, never
 * deleted: their uploads and the events that name them stay meaningful. Wrong passwords are kept
 * per portal and address to slow down guessing. The outbox learns which portal a message is for
 * and its channel (`sms` invites wait there: no SMS provider).
 */
export const portals: Migration = {
  version: 9,
  name: "portals",
  up(db) {
    db.exec(`
      CREATE TABLE portals (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        member_id TEXT,
        key_id TEXT,
        slug TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        message TEXT,
        target_path TEXT NOT NULL,
        require_email INTEGER NOT NULL,
        -- scrypt$N$r$p$salt$hash (base64); NULL without a password.
        password_hash TEXT,
        max_bytes_per_upload INTEGER,
        expires_at INTEGER,
        notify_on_upload INTEGER NOT NULL,
        project_id TEXT,
        due_at INTEGER,
        fields TEXT NOT NULL,
        rules TEXT NOT NULL,
        spec TEXT,
        approved_path TEXT,
        invite_emails TEXT NOT NULL,
        invite_phones TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'revoked')),
        upload_count INTEGER NOT NULL DEFAULT 0,
        bytes_received INTEGER NOT NULL DEFAULT 0,
        last_upload_at INTEGER,
        revoked_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX portals_workspace ON portals (workspace_id, id);

      CREATE TABLE portal_uploads (
        id TEXT PRIMARY KEY,
        portal_id TEXT NOT NULL REFERENCES portals(id),
        workspace_id TEXT NOT NULL,
        transfer_id TEXT,
        sender_email TEXT,
        sender_name TEXT,
        message TEXT,
        fields TEXT NOT NULL,
        folder_path TEXT NOT NULL,
        file_count INTEGER,
        bytes_total INTEGER,
        files_shown TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL CHECK (status IN ('uploading', 'received', 'pending', 'approved', 'rejected', 'failed')),
        spec_status TEXT NOT NULL CHECK (spec_status IN ('not_required', 'checking', 'passed', 'failed')),
        spec_result TEXT,
        spec_checked_at INTEGER,
        review_note TEXT,
        reviewed_by TEXT,
        reviewed_at INTEGER,
        created_at INTEGER NOT NULL,
        completed_at INTEGER
      );
      CREATE INDEX portal_uploads_workspace ON portal_uploads (workspace_id, id);
      CREATE INDEX portal_uploads_status ON portal_uploads (workspace_id, status, id);
      CREATE INDEX portal_uploads_portal ON portal_uploads (portal_id, id);
      CREATE INDEX portal_uploads_portal_status ON portal_uploads (portal_id, status, id);
      CREATE UNIQUE INDEX portal_uploads_transfer ON portal_uploads (transfer_id);

      CREATE TABLE portal_password_failures (
        portal_id TEXT NOT NULL REFERENCES portals(id),
        address TEXT NOT NULL,
        failed_at INTEGER NOT NULL
      );
      CREATE INDEX portal_password_failures_lookup
        ON portal_password_failures (portal_id, address, failed_at);

      ALTER TABLE mail_outbox ADD COLUMN portal_id TEXT;
      ALTER TABLE mail_outbox ADD COLUMN channel TEXT NOT NULL DEFAULT 'email';
      CREATE INDEX mail_outbox_portal ON mail_outbox (portal_id, id);
    `);
  },
};
