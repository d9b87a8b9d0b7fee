import { type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Clock } from "@/server/lib/clock";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import { DELETE_TRASHED } from "@/server/modules/files/trash.pg";
import { expiredEvent } from "@/server/modules/shares/lifecycle.service";
import type { UpkeepStore } from "./upkeep-store";

/**
 * The periodic workers' units on PostgreSQL (upkeep-store.ts). Where SQLite's write lock runs
 * one purge at a time, here every service process runs its workers: a batch claims its rows
 * `FOR UPDATE SKIP LOCKED`, so a second process takes the next rows instead of waiting to
 * delete the same ones again, and a trash item a person is restoring or purging (their unit
 * holds its row `FOR UPDATE`, trash.pg.ts) is left for the next hour. A share's expiry is one
 * conditional UPDATE: a second run waits for the first's row lock, then finds it expired.
 */
export class PgUpkeepStore implements UpkeepStore {
  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
    private readonly events: PgEventRecorder,
  ) {}

  purgeExpiredTrash(now: number, limit: number) {
    return withPgTransaction(this.pool, async (c) => {
      const { rows } = await c.query<{ id: string }>(
        `SELECT id FROM trash_items WHERE purge_at <= $1 ORDER BY purge_at LIMIT $2
         FOR UPDATE SKIP LOCKED`,
        [now, limit],
      );
      for (const { id } of rows) await c.query(DELETE_TRASHED, [id]);
      return rows.length;
    });
  }

  async expireShare(shareId: string, expiresAt: number) {
    const announced = await withPgTransaction(this.pool, async (c) => {
      const now = this.clock.now();
      const { rows } = await c.query<{ workspace_id: string }>(
        `UPDATE shares SET expired_at = $3
         WHERE id = $1 AND expires_at = $2 AND expires_at <= $3 AND expired_at IS NULL
           AND revoked_at IS NULL
         RETURNING workspace_id`,
        [shareId, expiresAt, now],
      );
      if (!rows[0]) return null;
      return this.events.write(
        c,
        rows[0].workspace_id,
        "share.expired",
        expiredEvent(shareId, expiresAt),
      );
    });
    if (announced) this.events.announce(announced);
    return announced !== null;
  }

  async pruneEvents(before: number, limit: number) {
    const { rowCount } = await this.pool.query(
      `DELETE FROM events WHERE id IN (
         SELECT id FROM events WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
    return rowCount ?? 0;
  }

  async failAbandonedUploads(idleSince: number) {
    const { rowCount } = await this.pool.query(
      `UPDATE portal_uploads SET status = 'failed'
       WHERE status = 'uploading' AND id IN (
         SELECT id FROM portal_uploads
         WHERE status = 'uploading' AND transfer_id IN (
           SELECT id FROM transfers WHERE client = 'portal' AND (
             status IN ('failed', 'cancelled') OR coalesce(last_activity_at, created_at) < $1))
         FOR UPDATE SKIP LOCKED)`,
      [idleSince],
    );
    return rowCount ?? 0;
  }
}
