import type { PgClient } from "@/server/db/pg/pool";
import { insertUnitJob } from "@/server/workers/jobs.pg";
import type { outboxEntry } from "./mailer";

/** queueMessage in the unit's transaction: the outbox row, and its mail job when SMTP is set. */
export async function queueMailPg(c: PgClient, m: ReturnType<typeof outboxEntry>, now: number) {
  const r = m.row;
  await c.query(
    `INSERT INTO mail_outbox (id, workspace_id, share_id, portal_id, recipient_id, channel, to_address, subject, body, link, status, error, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      r.id,
      r.workspace_id,
      r.share_id,
      r.portal_id,
      r.recipient_id,
      r.channel,
      r.to_address,
      r.subject,
      r.body,
      r.link,
      r.status,
      r.error,
      r.created_at,
    ],
  );
  if (m.job) await insertUnitJob(c, m.job, now);
  return r.id;
}
