import type { Migration } from ".";

/**
 * Shares and receipts (spec: Shares, Receipts; docs/api-decisions.md, Shares and receipts).
 * A share snapshots its files (`share_files`: path, size, sha256 and how the blob is stored) and
 * holds a reference on each blob, so a file changed or purged later does not change what it
 * delivers. Recipients' personal links are stored as hashes (`share_links`, several per
 * recipient after a resend); the plain link's token is kept in clear, as it is the share's
 * address. Views, downloads (with each file's reported SHA-256) and wrong passwords are kept
 * for the receipt, which is also why a share is never deleted, only revoked.
 */
export const shares: Migration = {
  version: 8,
  name: "shares",
  up(db) {
    db.exec(`
      CREATE TABLE shares (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        member_id TEXT,
        key_id TEXT,
        title TEXT NOT NULL,
        message TEXT,
        link_token TEXT NOT NULL UNIQUE,
        -- scrypt$N$r$p$salt$hash (base64); NULL without a password.
        password_hash TEXT,
        expires_at INTEGER NOT NULL,
        max_downloads INTEGER,
        download_count INTEGER NOT NULL DEFAULT 0,
        view_count INTEGER NOT NULL DEFAULT 0,
        comment_count INTEGER NOT NULL DEFAULT 0,
        file_count INTEGER NOT NULL,
        total_bytes INTEGER NOT NULL,
        items TEXT NOT NULL,
        revoked_at INTEGER,
        expired_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX shares_workspace ON shares (workspace_id, id);
      CREATE INDEX shares_expiry ON shares (workspace_id, expires_at) WHERE revoked_at IS NULL;

      CREATE TABLE share_files (
        share_id TEXT NOT NULL REFERENCES shares(id),
        idx INTEGER NOT NULL,
        path TEXT NOT NULL,
        size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        mime TEXT,
        PRIMARY KEY (share_id, idx)
      ) WITHOUT ROWID;
      CREATE UNIQUE INDEX share_files_path ON share_files (share_id, path);

      CREATE TABLE share_recipients (
        id TEXT PRIMARY KEY,
        share_id TEXT NOT NULL REFERENCES shares(id),
        email TEXT NOT NULL,
        sent_at INTEGER,
        views INTEGER NOT NULL DEFAULT 0,
        first_viewed_at INTEGER,
        last_viewed_at INTEGER,
        downloads INTEGER NOT NULL DEFAULT 0,
        unverified_downloads INTEGER NOT NULL DEFAULT 0,
        last_download_at INTEGER,
        files_downloaded INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX share_recipients_email ON share_recipients (share_id, email);
      CREATE INDEX share_recipients_by_email ON share_recipients (email, share_id);

      CREATE TABLE share_links (
        token_hash TEXT PRIMARY KEY,
        share_id TEXT NOT NULL REFERENCES shares(id),
        recipient_id TEXT NOT NULL REFERENCES share_recipients(id),
        created_at INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE share_views (
        id INTEGER PRIMARY KEY,
        share_id TEXT NOT NULL REFERENCES shares(id),
        recipient_id TEXT,
        address TEXT,
        user_agent TEXT,
        viewed_at INTEGER NOT NULL
      );
      CREATE INDEX share_views_share ON share_views (share_id, viewed_at);

      CREATE TABLE share_downloads (
        id TEXT PRIMARY KEY,
        share_id TEXT NOT NULL REFERENCES shares(id),
        recipient_id TEXT,
        transfer_id TEXT,
        address TEXT,
        user_agent TEXT,
        started_at INTEGER NOT NULL,
        completed_at INTEGER,
        file_count INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        -- 1 when completed and every file's reported SHA-256 matched the share's.
        verified INTEGER NOT NULL,
        unverified_count INTEGER NOT NULL
      );
      CREATE INDEX share_downloads_share ON share_downloads (share_id, started_at);

      CREATE TABLE share_download_files (
        download_id TEXT NOT NULL REFERENCES share_downloads(id),
        idx INTEGER NOT NULL,
        share_id TEXT NOT NULL,
        file_idx INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        reported_sha256 TEXT,
        matched INTEGER NOT NULL,
        PRIMARY KEY (download_id, idx)
      ) WITHOUT ROWID;
      CREATE INDEX share_download_files_unmatched ON share_download_files (download_id) WHERE matched = 0;
      CREATE INDEX share_download_files_file ON share_download_files (share_id, file_idx);

      -- The distinct files each recipient completed: "did everyone get everything".
      CREATE TABLE share_recipient_files (
        recipient_id TEXT NOT NULL,
        file_idx INTEGER NOT NULL,
        PRIMARY KEY (recipient_id, file_idx)
      ) WITHOUT ROWID;

      CREATE TABLE share_password_failures (
        id INTEGER PRIMARY KEY,
        share_id TEXT NOT NULL REFERENCES shares(id),
        recipient_id TEXT,
        address TEXT NOT NULL,
        failed_at INTEGER NOT NULL
      );
      CREATE INDEX share_password_failures_address ON share_password_failures (share_id, address, failed_at);

      CREATE TABLE share_changes (
        id INTEGER PRIMARY KEY,
        share_id TEXT NOT NULL REFERENCES shares(id),
        changed_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        previous_expires_at INTEGER NOT NULL,
        max_downloads INTEGER,
        previous_max_downloads INTEGER
      );
      CREATE INDEX share_changes_share ON share_changes (share_id, changed_at);

      CREATE TABLE share_comments (
        id TEXT PRIMARY KEY,
        share_id TEXT NOT NULL REFERENCES shares(id),
        parent_id TEXT REFERENCES share_comments(id),
        body TEXT NOT NULL,
        author_kind TEXT NOT NULL CHECK (author_kind IN ('member', 'recipient', 'anonymous')),
        author_name TEXT,
        author_email TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX share_comments_share ON share_comments (share_id, id);

      -- Mail waiting to leave (or, without SMTP_URL, waiting to be delivered by hand).
      CREATE TABLE mail_outbox (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        share_id TEXT,
        recipient_id TEXT,
        to_address TEXT NOT NULL,
        subject TEXT NOT NULL,
        -- The text with {{link}} where the link goes; the link is kept only until it is sent.
        body TEXT NOT NULL,
        link TEXT,
        status TEXT NOT NULL CHECK (status IN ('waiting', 'queued', 'sent', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        smtp_message_id TEXT,
        created_at INTEGER NOT NULL,
        sent_at INTEGER
      );
      CREATE INDEX mail_outbox_workspace ON mail_outbox (workspace_id, id);
      CREATE INDEX mail_outbox_share ON mail_outbox (share_id, id);
    `);
  },
};
