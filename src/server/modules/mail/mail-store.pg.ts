import { type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Clock } from "@/server/lib/clock";
import type { MailStore } from "./mail-store";
import type { OutboxRow } from "./outbox.repository";

/** AfterSent on PostgreSQL, in the transaction that marks the message sent. */
export type AfterSentPg = (c: PgClient, m: OutboxRow, now: number) => Promise<void>;

/** The mail job's units on PostgreSQL: outbox.repository.ts's statements, one per unit. */
export class PgMailStore implements MailStore {
  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
    private readonly afterSent: AfterSentPg,
  ) {}

  async message(id: string) {
    const { rows } = await this.pool.query<OutboxRow>("SELECT * FROM mail_outbox WHERE id = $1", [
      id,
    ]);
    return rows[0];
  }

  async markSent(m: OutboxRow, smtpMessageId: string | null) {
    await withPgTransaction(this.pool, async (c) => {
      const now = this.clock.now();
      const { rowCount } = await c.query(
        `UPDATE mail_outbox SET status = 'sent', link = NULL, smtp_message_id = $1, sent_at = $2,
           attempts = attempts + 1, error = NULL WHERE id = $3 AND status = 'queued'`,
        [smtpMessageId, now, m.id],
      );
      if ((rowCount ?? 0) > 0) await this.afterSent(c, m, now);
    });
  }

  async markFailed(id: string, error: string, final: boolean) {
    await this.pool.query(
      `UPDATE mail_outbox SET attempts = attempts + 1, error = $1,
         status = CASE WHEN $2 THEN 'failed' ELSE status END WHERE id = $3 AND status = 'queued'`,
      [error, final, id],
    );
  }
}
