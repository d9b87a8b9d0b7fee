import type { Migration } from ".";

/**
 * Password tries, for the slow-down (lib/attempt-limiter.ts): one table for a share's, a
 * portal's and protected content's passwords, per target and address. A row is a try that is
 * not known to have been right: claimed before the password is hashed, deleted when it was
 * right, pruned once older than the window. The portal's own log of wrong passwords served only
 * the slow-down: its rows move here and it goes. A share's log stays (the receipt shows it);
 * its last 15 minutes are copied, so an upgrade does not hand out fresh tries.
 */
export const passwordAttempts: Migration = {
  version: 10,
  name: "password-attempts",
  up(db) {
    db.exec(`
      CREATE TABLE password_attempts (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('share', 'portal', 'content')),
        target TEXT NOT NULL,
        address TEXT NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE INDEX password_attempts_target ON password_attempts (kind, target, at);
      CREATE INDEX password_attempts_address
        ON password_attempts (kind, target, address, at);

      INSERT INTO password_attempts (kind, target, address, at)
        SELECT 'portal', portal_id, address, failed_at FROM portal_password_failures;
      DROP TABLE portal_password_failures;
      INSERT INTO password_attempts (kind, target, address, at)
        SELECT 'share', share_id, address, failed_at FROM share_password_failures
        WHERE failed_at >= (CAST(strftime('%s', 'now') AS INTEGER) - 15 * 60) * 1000;
    `);
  },
};
