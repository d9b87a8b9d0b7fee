import { DISABLE_AFTER_FAILURES } from "@/contract/webhooks";
import type { Db } from "@/server/db/database";
import { newId } from "@/server/lib/ids";
import type { Logger } from "@/server/lib/logger";
import {
  anyDue,
  type DeliveryRow,
  dueCandidates,
  leaseAny,
  leaseDue,
  liveLeases,
} from "./deliveries.repository";
import { type FinishedAttempt, settleAttempt } from "./delivery-outcome";

/** How many due rows a claim looks at per slot it fills, to pass over capped endpoints' rows. */
export const CLAIM_WINDOW = 4;

/** Names the leases one claimer holds, unique per process and per claimer. */
export const claimOwner = () => `webhooks-${process.pid}-${newId()}`;

/**
 * The dispatcher's port to the database: one call per unit of work, each a transaction. A
 * claimed delivery is leased to its owner until `leaseMs` passes, so a restart neither loses an
 * attempt (the lease expires and the row is claimed again) nor runs one twice while its lease
 * holds. An endpoint's budget is its remaining failures before the twenty-failure rule, less the
 * live leases on its rows: leases are in the database, so every process claiming from it counts
 * every other's attempts in flight. Settling an attempt counts its failure and drops its lease
 * in one transaction, so the budget never counts an attempt twice or not at all.
 */
export interface DeliveryClaims {
  readonly owner: string;
  /** Leases up to `limit` due deliveries, within each endpoint's budget. */
  claimDue(limit: number, now: number): Promise<DeliveryRow[]>;
  /** Leases one delivery for a manual attempt; null while another attempt of it holds a lease. */
  claimOne(deliveryId: string, now: number): Promise<DeliveryRow | null>;
  /** Records an attempt's outcome and releases its lease (delivery-outcome.ts says how). */
  settle(attempt: FinishedAttempt, now: number): Promise<void>;
}

/** The embedded engine: each unit is today's synchronous SQLite transaction. */
export class SqliteDeliveryClaims implements DeliveryClaims {
  readonly owner = claimOwner();
  private readonly claim: (limit: number, now: number) => DeliveryRow[];

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly leaseMs: number,
  ) {
    // Under the write lock from its first read (BEGIN IMMEDIATE): two processes claiming at once
    // cannot both count the same free slot.
    const claim = db.transaction((limit: number, now: number) =>
      this.leaseWithinBudgets(limit, now),
    );
    this.claim = (limit, now) => claim.immediate(limit, now);
  }

  async claimDue(limit: number, now: number) {
    // A read first: the claim takes the write lock, and nothing is due most of the time.
    if (!anyDue(this.db, now)) return [];
    return this.claim(limit, now);
  }

  async claimOne(deliveryId: string, now: number) {
    return leaseAny(this.db, deliveryId, this.owner, now, now + this.leaseMs) ?? null;
  }

  async settle(attempt: FinishedAttempt, now: number) {
    settleAttempt(this.db, this.log, this.owner, attempt, now);
  }

  /**
   * Only a window at the head of the due index is looked at: a scan of every pending row would
   * cost more than an attempt when a backlog builds up.
   */
  private leaseWithinBudgets(limit: number, now: number) {
    const candidates = dueCandidates(this.db, now, limit * CLAIM_WINDOW);
    if (candidates.length === 0) return [];
    const inFlight = new Map(liveLeases(this.db, now).map((l) => [l.endpoint_id, l.n]));
    const budget = new Map<string, number>();
    const picked: string[] = [];
    for (const c of candidates) {
      const left =
        budget.get(c.endpoint_id) ??
        DISABLE_AFTER_FAILURES - c.failure_count - (inFlight.get(c.endpoint_id) ?? 0);
      if (left <= 0) continue;
      budget.set(c.endpoint_id, left - 1);
      picked.push(c.id);
      if (picked.length === limit) break;
    }
    if (picked.length === 0) return [];
    return leaseDue(this.db, picked, this.owner, now, now + this.leaseMs);
  }
}
