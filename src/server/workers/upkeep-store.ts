import { stmt } from "@/server/db/statements";
import type { AppDeps } from "@/server/deps";
import { deleteEventsBefore } from "@/server/modules/events/events.repository";
import { deleteTrashed } from "@/server/modules/files/trash.repository";
import { failAbandoned } from "@/server/modules/portals/portals.repository";
import { expireShare } from "@/server/modules/shares/lifecycle.service";

/**
 * The periodic workers' data units (docs/scale-out.md, Upkeep): the files area's trash purge,
 * a share's expiry, the events' retention and the portals' abandoned uploads, one async call per unit, each one transaction.
 * The workers loop over the batched ones. SQLite's implementation runs today's statements
 * inside the call; PostgreSQL's is upkeep-store.pg.ts, where a claim of many rows skips the
 * rows another process holds, so two processes never purge or prune the same row
 * (upkeep-store.test.ts, upkeep-store.pg.test.ts).
 */
export interface UpkeepStore {
  /**
   * Deletes up to `limit` trash items whose purge time has come (soonest first), their rows,
   * kept versions and blob references. Returns how many went. Unreferenced blobs stay for the
   * purge's collection, which is SQLite's (files.workers.ts).
   */
  purgeExpiredTrash(now: number, limit: number): Promise<number>;
  /**
   * The expiry job's unit: marks the share expired and records `share.expired`, only if it
   * still expires at `expiresAt`, that time has come, and it is neither expired nor revoked.
   * True when it did.
   */
  expireShare(shareId: string, expiresAt: number): Promise<boolean>;
  /** Deletes up to `limit` events older than `before`, with their deliveries and attempts. */
  pruneEvents(before: number, limit: number): Promise<number>;
  /**
   * Marks failed the portal uploads still `uploading` whose transfer failed, was cancelled or
   * has been idle since before `idleSince`. Returns how many.
   */
  failAbandonedUploads(idleSince: number): Promise<number>;
}

export class SqliteUpkeepStore implements UpkeepStore {
  constructor(private readonly deps: () => Pick<AppDeps, "db" | "clock" | "events">) {}

  async purgeExpiredTrash(now: number, limit: number) {
    const { db } = this.deps();
    return db
      .transaction(() => {
        const ids = stmt<[number, number], string>(
          db,
          "SELECT id FROM trash_items WHERE purge_at <= ? ORDER BY purge_at LIMIT ?",
        )
          .pluck()
          .all(now, limit);
        for (const id of ids) deleteTrashed(db, id);
        return ids.length;
      })
      .immediate();
  }

  async expireShare(shareId: string, expiresAt: number) {
    return expireShare(this.deps(), shareId, expiresAt);
  }

  async pruneEvents(before: number, limit: number) {
    return deleteEventsBefore(this.deps().db, before, limit);
  }

  async failAbandonedUploads(idleSince: number) {
    return failAbandoned(this.deps().db, idleSince);
  }
}
