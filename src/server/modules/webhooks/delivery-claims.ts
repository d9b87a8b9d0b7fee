import { DISABLE_AFTER_FAILURES } from "@/contract/webhooks";
import type { Db } from "@/server/db/database";
import { newId } from "@/server/lib/ids";
import { type DeliveryRow, dueCandidates, leaseAny, leaseDue } from "./deliveries.repository";

/** How many due rows a claim looks at per slot it fills, to pass over capped endpoints' rows. */
const CLAIM_WINDOW = 4;

/**
 * Claiming and leasing. A claimed delivery is leased to this process until `leaseMs` passes, so
 * a restart neither loses an attempt (the lease expires and the row is claimed again) nor runs
 * one twice while its lease holds. Every claim counts as in flight for its endpoint until
 * release() is called, which is what caps an endpoint at the failures it has left.
 */
export class DeliveryClaims {
  readonly owner = `webhooks-${process.pid}-${newId()}`;
  /** Attempts this process has in flight per endpoint, scheduled and manual alike. */
  private readonly inFlightByEndpoint = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly leaseMs: number,
  ) {}

  /**
   * Leases up to `limit` due deliveries, no more per endpoint than its remaining failures before
   * the twenty-failure rule disables it, so a burst to a dead endpoint cannot overshoot. Only a
   * window at the head of the due index is looked at: a scan of every pending row would cost
   * more than an attempt when a backlog builds up.
   */
  claimDue(limit: number, now: number): DeliveryRow[] {
    // A read first: an UPDATE takes the write lock even when nothing is due, twice a second.
    const candidates = dueCandidates(this.db, now, limit * CLAIM_WINDOW);
    const budget = new Map<string, number>();
    const picked: string[] = [];
    for (const c of candidates) {
      const left =
        budget.get(c.endpoint_id) ??
        DISABLE_AFTER_FAILURES - c.failure_count - this.inFlight(c.endpoint_id);
      if (left <= 0) continue;
      budget.set(c.endpoint_id, left - 1);
      picked.push(c.id);
      if (picked.length === limit) break;
    }
    if (picked.length === 0) return [];
    const rows = leaseDue(this.db, picked, this.owner, now, now + this.leaseMs);
    for (const r of rows) this.count(r.endpoint_id, 1);
    return rows;
  }

  /** Leases one delivery for a manual attempt; null while another attempt of it holds a lease. */
  claimOne(deliveryId: string, now: number): DeliveryRow | null {
    const row = leaseAny(this.db, deliveryId, this.owner, now, now + this.leaseMs);
    if (!row) return null;
    this.count(row.endpoint_id, 1);
    return row;
  }

  /** Ends a claim's in-flight count; called after its outcome is settled (the lease with it). */
  release(endpointId: string) {
    this.count(endpointId, -1);
  }

  private inFlight(endpointId: string) {
    return this.inFlightByEndpoint.get(endpointId) ?? 0;
  }

  private count(endpointId: string, change: 1 | -1) {
    const n = this.inFlight(endpointId) + change;
    if (n === 0) this.inFlightByEndpoint.delete(endpointId);
    else this.inFlightByEndpoint.set(endpointId, n);
  }
}
