import { WEBHOOK_TEST } from "@/contract/events";
import type {
  DeliveriesQuery,
  DeliveryAttempt,
  DeliveryStatus,
  WebhookDelivery,
} from "@/contract/webhooks";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { RecordedEvent } from "@/server/modules/events/events.repository";
import type { EndpointKind } from "./webhooks.repository";

export interface DeliveryRow {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  held: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  manual: number;
  url: string;
  request_headers: string;
  request_body: string;
  started_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  response_truncated: number;
}

export const deliveryView = (d: DeliveryRow): WebhookDelivery => ({
  id: d.id,
  eventId: d.event_id,
  type: d.event_type,
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: toIso(d.next_attempt_at),
  lastStatusCode: d.last_status_code,
  lastError: d.last_error,
  deliveredAt: toIsoOrNull(d.delivered_at),
  createdAt: toIso(d.created_at),
});

export const attemptView = (a: AttemptRow): DeliveryAttempt => ({
  attempt: a.attempt,
  manual: a.manual === 1,
  startedAt: toIso(a.started_at),
  durationMs: a.duration_ms,
  statusCode: a.status_code,
  error: a.error,
  responseBody: a.response_body,
  responseTruncated: a.response_truncated === 1,
  requestHeaders: JSON.parse(a.request_headers),
});

/**
 * The webhooks module's fan-out (registered with the EventRecorder, run inside the event's
 * transaction): one pending delivery, due now, per active endpoint subscribed to the type or to
 * `*`. A `webhook.test` goes only to the endpoint its data names, and only while it is active.
 */
export function enqueueDeliveries(db: Db, event: RecordedEvent): number {
  const targets =
    event.type === WEBHOOK_TEST
      ? stmt<[string, string], { id: string }>(
          db,
          "SELECT id FROM webhook_endpoints WHERE id = ? AND workspace_id = ? AND status = 'active'",
        ).all(String(event.data.webhookId), event.workspaceId)
      : stmt<[string, string], { id: string }>(
          db,
          `SELECT id FROM webhook_endpoints e
           WHERE workspace_id = ? AND status = 'active'
             AND EXISTS (SELECT 1 FROM json_each(e.events) WHERE value IN (?, '*'))`,
        ).all(event.workspaceId, event.type);
  const insert = stmt(
    db,
    `INSERT INTO webhook_deliveries
       (id, workspace_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
  );
  for (const t of targets) {
    insert.run(
      newId(),
      event.workspaceId,
      t.id,
      event.id,
      event.type,
      event.createdAt,
      event.createdAt,
    );
  }
  return targets.length;
}

/** The delivery an event made for one endpoint (the test operation reports it). */
export const deliveryOfEvent = (db: Db, eventId: string, endpointId: string) =>
  stmt<[string, string], { id: string }>(
    db,
    "SELECT id FROM webhook_deliveries WHERE event_id = ? AND endpoint_id = ?",
  ).get(eventId, endpointId)?.id;

export interface DueCandidate {
  id: string;
  endpoint_id: string;
  failure_count: number;
}

/** Whether any delivery is due: the claim's read before it takes the write lock. */
export const anyDue = (db: Db, now: number) =>
  stmt<[number, number], { one: number }>(
    db,
    `SELECT 1 AS one FROM webhook_deliveries
     WHERE status = 'pending' AND held = 0 AND next_attempt_at <= ?
       AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
     LIMIT 1`,
  ).get(now, now) !== undefined;

/** Live leases per endpoint, whichever process holds them: the attempts in flight. */
export const liveLeases = (db: Db, now: number) =>
  stmt<[number], { endpoint_id: string; n: number }>(
    db,
    `SELECT endpoint_id, count(*) AS n FROM webhook_deliveries
     WHERE lease_owner IS NOT NULL AND lease_expires_at > ? GROUP BY endpoint_id`,
  ).all(now);

/** Due, unleased deliveries from the head of the due index, with their endpoint's failures. */
export const dueCandidates = (db: Db, now: number, limit: number) =>
  stmt<[number, number, number], DueCandidate>(
    db,
    `SELECT d.id, d.endpoint_id, e.failure_count
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.status = 'pending' AND d.held = 0 AND d.next_attempt_at <= ?
       AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ?)
     ORDER BY d.next_attempt_at LIMIT ?`,
  ).all(now, now, limit);

/** Leases those of `ids` that are still due and unleased (another process may have taken some). */
export const leaseDue = (db: Db, ids: string[], owner: string, now: number, until: number) =>
  stmt<[string, number, string, number, number], DeliveryRow>(
    db,
    `UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ?
     WHERE id IN (SELECT value FROM json_each(?))
       AND status = 'pending' AND held = 0 AND next_attempt_at <= ?
       AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
     RETURNING *`,
  ).all(owner, until, JSON.stringify(ids), now, now);

/** Leases one delivery whatever its status, unless another attempt of it holds a lease. */
export const leaseAny = (db: Db, id: string, owner: string, now: number, until: number) =>
  stmt<[string, number, string, number], DeliveryRow>(
    db,
    `UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ?
     WHERE id = ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?) RETURNING *`,
  ).get(owner, until, id, now);

/** Where a delivery goes and what signs it. */
export const deliveryTarget = (db: Db, deliveryId: string) =>
  stmt<[string], { url: string; kind: EndpointKind; secret_sealed: string }>(
    db,
    `SELECT e.url, e.kind, e.secret_sealed
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.id = ?`,
  ).get(deliveryId);

export const countScheduledAttempts = (db: Db, deliveryId: string) =>
  stmt<[string], { n: number }>(
    db,
    "SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id = ? AND manual = 0",
  ).get(deliveryId)!.n;

/** An attempt's outcome on its delivery, releasing the lease; false when the lease was lost. */
export const saveDeliveryOutcome = (
  db: Db,
  id: string,
  owner: string,
  o: {
    status: DeliveryStatus;
    attempts: number;
    nextAttemptAt: number;
    held: boolean;
    statusCode: number | null;
    error: string | null;
    deliveredAt: number | null;
  },
) =>
  stmt(
    db,
    `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, held = ?,
       last_status_code = ?, last_error = ?, delivered_at = coalesce(?, delivered_at),
       lease_owner = NULL, lease_expires_at = NULL
     WHERE id = ? AND lease_owner = ?`,
  ).run(
    o.status,
    o.attempts,
    o.nextAttemptAt,
    o.held ? 1 : 0,
    o.statusCode,
    o.error,
    o.deliveredAt,
    id,
    owner,
  ).changes > 0;

export const insertAttempt = (db: Db, a: AttemptRow) =>
  stmt(
    db,
    `INSERT INTO webhook_attempts (delivery_id, attempt, manual, url, request_headers, request_body,
       started_at, duration_ms, status_code, error, response_body, response_truncated)
     VALUES (@delivery_id, @attempt, @manual, @url, @request_headers, @request_body,
       @started_at, @duration_ms, @status_code, @error, @response_body, @response_truncated)`,
  ).run(a);

/** Disabled endpoints' pending deliveries wait, out of the dispatcher's due index, until re-enabled. */
export const holdPending = (db: Db, endpointId: string, held: boolean) =>
  stmt(
    db,
    "UPDATE webhook_deliveries SET held = ? WHERE endpoint_id = ? AND status = 'pending'",
  ).run(held ? 1 : 0, endpointId);

export function listDeliveries(
  db: Db,
  endpointId: string,
  q: Required<Pick<DeliveriesQuery, "limit">> & DeliveriesQuery,
) {
  const where = ["endpoint_id = @endpointId"];
  const params: Record<string, unknown> = { endpointId, limit: q.limit };
  if (q.status) {
    where.push("status = @status");
    params.status = q.status;
  }
  if (q.type) {
    where.push("event_type = @type");
    params.type = q.type;
  }
  if (q.since) {
    where.push("created_at >= @since");
    params.since = Date.parse(q.since);
  }
  if (q.before) {
    where.push("id < @before");
    params.before = q.before;
  }
  // One text per combination of filters (sixteen at most), each prepared once.
  return stmt<[Record<string, unknown>], DeliveryRow>(
    db,
    `SELECT * FROM webhook_deliveries WHERE ${where.join(" AND ")} ORDER BY id DESC LIMIT @limit`,
  ).all(params);
}

export const getDelivery = (db: Db, endpointId: string, id: string) =>
  stmt<[string, string], DeliveryRow>(
    db,
    "SELECT * FROM webhook_deliveries WHERE id = ? AND endpoint_id = ?",
  ).get(id, endpointId);

export const listAttempts = (db: Db, deliveryId: string) =>
  stmt<[string], AttemptRow>(
    db,
    "SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt",
  ).all(deliveryId);
