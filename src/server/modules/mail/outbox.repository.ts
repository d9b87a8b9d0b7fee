import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

/*
 * The mail module's one table. `mail_outbox` was created by the shares migration (0008), when a
 * share's link was the only mail, and given `portal_id` and `channel` by the portals one (0009),
 * when portals began to mail invites and notices: the module was carved out of shares later, and
 * an applied migration is never edited, so the table's history stays in those two files.
 * `share_id`, `portal_id` and `recipient_id` name rows of other modules' tables; no query here
 * joins them.
 */

export type OutboxStatus = "waiting" | "queued" | "sent" | "failed";

/** A `mail_outbox` row: `body` holds `{{link}}` where `link` goes; `link` is dropped once sent. */
export interface OutboxRow {
  id: string;
  workspace_id: string;
  share_id: string | null;
  portal_id: string | null;
  recipient_id: string | null;
  /** `sms` messages wait in the outbox: no SMS provider is configured. */
  channel: "email" | "sms";
  to_address: string;
  subject: string;
  body: string;
  link: string | null;
  status: OutboxStatus;
  attempts: number;
  error: string | null;
  smtp_message_id: string | null;
  created_at: number;
  sent_at: number | null;
}

export const LINK_PLACEHOLDER = "{{link}}";

export type NewOutboxRow = Omit<OutboxRow, "attempts" | "smtp_message_id" | "sent_at">;

export const insertMessage = (db: Db, m: NewOutboxRow) =>
  stmt(
    db,
    `INSERT INTO mail_outbox (id, workspace_id, share_id, portal_id, recipient_id, channel, to_address, subject, body, link, status, error, created_at)
     VALUES (@id, @workspace_id, @share_id, @portal_id, @recipient_id, @channel, @to_address, @subject, @body, @link, @status, @error, @created_at)`,
  ).run(m);

export const messageById = (db: Db, id: string) =>
  stmt<[string], OutboxRow>(db, "SELECT * FROM mail_outbox WHERE id = ?").get(id);

/** The SMTP server took it: the personal link is no longer kept. */
export const markSent = (db: Db, id: string, smtpMessageId: string | null, now: number) =>
  stmt(
    db,
    `UPDATE mail_outbox SET status = 'sent', link = NULL, smtp_message_id = ?, sent_at = ?,
       attempts = attempts + 1, error = NULL WHERE id = ? AND status = 'queued'`,
  ).run(smtpMessageId, now, id);

export const markAttemptFailed = (db: Db, id: string, error: string, final: boolean) =>
  stmt(
    db,
    `UPDATE mail_outbox SET attempts = attempts + 1, error = ?,
       status = CASE WHEN ? THEN 'failed' ELSE status END WHERE id = ? AND status = 'queued'`,
  ).run(error, final ? 1 : 0, id);

/**
 * Takes back a message that has not left (waiting, or queued with its send still ahead): its
 * sender changed what it says. False when it had gone (or failed) already.
 */
export const withdrawMessage = (db: Db, id: string) =>
  stmt(db, "DELETE FROM mail_outbox WHERE id = ? AND status IN ('waiting', 'queued')").run(id)
    .changes > 0;

/** Each filter of the outbox list, by its parameter: applied only when given. */
const filters = {
  status: "status = @status",
  shareId: "share_id = @shareId",
  portalId: "portal_id = @portalId",
  cursor: "id < @cursor",
} as const;

export function listMessages(
  db: Db,
  workspaceId: string,
  q: {
    status?: OutboxStatus;
    shareId?: string;
    portalId?: string;
    cursor?: string;
    limit: number;
    /** Only one area's mail (a key that may manage shares or portals, not both); omitted: all. */
    area?: "shares" | "portals";
  },
) {
  const where = ["workspace_id = @workspaceId"];
  if (q.area === "shares") where.push("share_id IS NOT NULL");
  if (q.area === "portals") where.push("portal_id IS NOT NULL");
  const params: Record<string, unknown> = { workspaceId, limit: q.limit };
  for (const [name, condition] of Object.entries(filters)) {
    const value = q[name as keyof typeof filters];
    if (value) {
      where.push(condition);
      params[name] = value;
    }
  }
  return stmt<[Record<string, unknown>], OutboxRow>(
    db,
    `SELECT * FROM mail_outbox WHERE ${where.join(" AND ")} ORDER BY id DESC LIMIT @limit`,
  ).all(params);
}

export const messagesOfShare = (db: Db, shareId: string) =>
  stmt<[string], OutboxRow>(db, "SELECT * FROM mail_outbox WHERE share_id = ? ORDER BY id").all(
    shareId,
  );
