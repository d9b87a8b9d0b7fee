import type { Db } from "@/server/db/database";
import type { Clock } from "@/server/lib/clock";
import { markAttemptFailed, markSent, messageById, type OutboxRow } from "./outbox.repository";

/**
 * What an area records once one of its messages has left, in the transaction that marks it sent
 * (shares: the recipient's `sentAt`). Mail knows no area's tables: each area hands its own, one
 * per engine (mail-store.pg.ts has PostgreSQL's form).
 */
export type AfterSent = (db: Db, m: OutboxRow, now: number) => void;

/**
 * The mail job's units (docs/scale-out.md, Upkeep): one async call each. SQLite's runs today's
 * statements; PostgreSQL's is mail-store.pg.ts; both answer alike (mail-store.test.ts).
 */
export interface MailStore {
  message(id: string): Promise<OutboxRow | undefined>;
  /**
   * The SMTP server took it: marked sent (its personal link dropped), and the area's record of
   * it, in one transaction; a message no longer queued (sent by an earlier run) is left as it is.
   */
  markSent(m: OutboxRow, smtpMessageId: string | null): Promise<void>;
  /** One more failed attempt; `final` gives up on it. Only a queued message. */
  markFailed(id: string, error: string, final: boolean): Promise<void>;
}

export class SqliteMailStore implements MailStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly afterSent: AfterSent,
  ) {}

  async message(id: string) {
    return messageById(this.db, id);
  }

  async markSent(m: OutboxRow, smtpMessageId: string | null) {
    this.db.transaction(() => {
      const now = this.clock.now();
      if (markSent(this.db, m.id, smtpMessageId, now).changes > 0) this.afterSent(this.db, m, now);
    })();
  }

  async markFailed(id: string, error: string, final: boolean) {
    markAttemptFailed(this.db, id, error, final);
  }
}
