import { DISABLE_AFTER_FAILURES } from "@/contract/webhooks";
import { type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Logger } from "@/server/lib/logger";
import type { DeliveryRow } from "./deliveries.repository";
import { CLAIM_WINDOW, claimOwner, type DeliveryClaims } from "./delivery-claims";
import { type FinishedAttempt, settlement } from "./delivery-outcome";
import type { EndpointRow } from "./webhooks.repository";

const DUE = `status = 'pending' AND held = 0 AND next_attempt_at <= $1
  AND (lease_expires_at IS NULL OR lease_expires_at <= $1)`;

/**
 * The endpoints at the head of the due index, locked in id order (so two claims never wait on
 * each other in a cycle). The lock is what makes an endpoint's budget check and its leases one
 * step under READ COMMITTED: the next statement's snapshot is taken after the lock is granted,
 * so it sees every lease another claim committed before letting go of it.
 */
const LOCK_HEAD_ENDPOINTS = `
  SELECT e.id FROM webhook_endpoints e
  WHERE e.id IN (SELECT endpoint_id FROM webhook_deliveries WHERE ${DUE}
                 ORDER BY next_attempt_at LIMIT $2)
  ORDER BY e.id FOR UPDATE OF e`;

/**
 * Leases, in one statement, the due rows of the locked endpoints that fit their budgets: the
 * failures left before the twenty-failure rule less the live leases on the endpoint's rows.
 * SKIP LOCKED passes over a row a manual retry or a settle is writing instead of waiting for it.
 */
const LEASE_WITHIN_BUDGETS = `
  WITH live AS (
    SELECT endpoint_id, count(*) AS n FROM webhook_deliveries
    WHERE lease_owner IS NOT NULL AND lease_expires_at > $1 AND endpoint_id = ANY($3::text[])
    GROUP BY endpoint_id
  ), candidates AS (
    SELECT id, endpoint_id, next_attempt_at FROM webhook_deliveries
    WHERE ${DUE} AND endpoint_id = ANY($3::text[])
    ORDER BY next_attempt_at LIMIT $2
    FOR UPDATE SKIP LOCKED
  ), ranked AS (
    SELECT c.id, c.next_attempt_at,
      row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.id) AS nth,
      $4::bigint - e.failure_count - coalesce(l.n, 0) AS budget
    FROM candidates c
    JOIN webhook_endpoints e ON e.id = c.endpoint_id
    LEFT JOIN live l ON l.endpoint_id = c.endpoint_id
  ), picked AS (
    SELECT id FROM ranked WHERE nth <= budget ORDER BY next_attempt_at, id LIMIT $5
  )
  UPDATE webhook_deliveries d SET lease_owner = $6, lease_expires_at = $7
  FROM picked WHERE d.id = picked.id
  RETURNING d.*`;

/**
 * The endpoint row locked first, as a claim locks it, so a settle and a claim of the same
 * endpoint take their locks in one order; the scheduled attempts so far come with it.
 */
const LOCK_ENDPOINT = `
  SELECT e.status, e.failure_count, e.kind,
    (SELECT count(*) FROM webhook_attempts WHERE delivery_id = $2 AND manual = 0) AS scheduled
  FROM webhook_endpoints e WHERE e.id = $1 FOR UPDATE OF e`;

/**
 * Everything an attempt writes, in one statement, and only when the lease is still ours (the
 * `saved` row): the delivery, its attempt log entry, the endpoint's health and, when the rule
 * disables the endpoint, its other pending deliveries held.
 */
const SAVE_OUTCOME = `
  WITH saved AS (
    UPDATE webhook_deliveries SET status = $3, attempts = $4, next_attempt_at = $5, held = $6,
      last_status_code = $7, last_error = $8, delivered_at = coalesce($9, delivered_at),
      lease_owner = NULL, lease_expires_at = NULL
    WHERE id = $1 AND lease_owner = $2
    RETURNING id, endpoint_id
  ), logged AS (
    INSERT INTO webhook_attempts (delivery_id, attempt, manual, url, request_headers, request_body,
      started_at, duration_ms, status_code, error, response_body, response_truncated)
    SELECT id, $10, $11, $12, $13, $14, $15, $16, $7, $8, $17, $18 FROM saved
  ), health AS (
    UPDATE webhook_endpoints e SET failure_count = $19, status = $20, last_delivery_at = $15
    FROM saved WHERE e.id = saved.endpoint_id
  ), held AS (
    UPDATE webhook_deliveries h SET held = 1
    FROM saved
    WHERE $21 AND h.endpoint_id = saved.endpoint_id AND h.status = 'pending' AND h.id <> saved.id
  )
  SELECT count(*) AS n FROM saved`;

/** The scale-out engine: the same units as SqliteDeliveryClaims, in hand-written SQL. */
export class PgDeliveryClaims implements DeliveryClaims {
  readonly owner = claimOwner();

  constructor(
    private readonly pool: PgPool,
    private readonly log: Logger,
    private readonly leaseMs: number,
  ) {}

  claimDue(limit: number, now: number): Promise<DeliveryRow[]> {
    const window = limit * CLAIM_WINDOW;
    return withPgTransaction(this.pool, async (c) => {
      const locked = await c.query<{ id: string }>(LOCK_HEAD_ENDPOINTS, [now, window]);
      if (locked.rows.length === 0) return [];
      const endpointIds = locked.rows.map((r) => r.id);
      const leased = await c.query<DeliveryRow>(LEASE_WITHIN_BUDGETS, [
        now,
        window,
        endpointIds,
        DISABLE_AFTER_FAILURES,
        limit,
        this.owner,
        now + this.leaseMs,
      ]);
      return leased.rows;
    });
  }

  async claimOne(deliveryId: string, now: number): Promise<DeliveryRow | null> {
    const { rows } = await this.pool.query<DeliveryRow>(
      `UPDATE webhook_deliveries SET lease_owner = $1, lease_expires_at = $2
       WHERE id = $3 AND (lease_expires_at IS NULL OR lease_expires_at <= $4) RETURNING *`,
      [this.owner, now + this.leaseMs, deliveryId, now],
    );
    return rows[0] ?? null;
  }

  async settle(a: FinishedAttempt, now: number): Promise<void> {
    const d = a.delivery;
    const disabled = await withPgTransaction(this.pool, async (c) => {
      const { rows } = await c.query<
        Pick<EndpointRow, "status" | "failure_count" | "kind"> & { scheduled: number }
      >(LOCK_ENDPOINT, [d.endpoint_id, d.id]);
      const endpoint = rows[0];
      if (!endpoint) return null;
      const s = settlement(a, endpoint, () => endpoint.scheduled, now);
      const saved = await c.query<{ n: number }>(SAVE_OUTCOME, [
        d.id,
        this.owner,
        s.delivery.status,
        s.delivery.attempts,
        s.delivery.nextAttemptAt,
        s.delivery.held ? 1 : 0,
        s.delivery.statusCode,
        s.delivery.error,
        s.delivery.deliveredAt,
        s.attempt.attempt,
        s.attempt.manual,
        s.attempt.url,
        s.attempt.request_headers,
        s.attempt.request_body,
        s.attempt.started_at,
        s.attempt.duration_ms,
        s.attempt.response_body,
        s.attempt.response_truncated,
        s.endpoint.failureCount,
        s.endpoint.status,
        s.disable,
      ]);
      return saved.rows[0]!.n > 0 && s.disable ? s.reason : null;
    });
    if (disabled)
      this.log.warn("webhook endpoint disabled", { endpointId: d.endpoint_id, reason: disabled });
  }
}
