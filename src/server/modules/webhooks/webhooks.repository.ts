import type {
  DeliveriesQuery,
  DeliveryAttempt,
  DeliveryStatus,
  RestHook,
  WebhookDelivery,
  WebhookEndpoint,
} from "@/contract/webhooks";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";

export type EndpointKind = "webhook" | "rest_hook";

export interface EndpointRow {
  id: string;
  workspace_id: string;
  kind: EndpointKind;
  url: string;
  description: string | null;
  events: string;
  secret_sealed: string;
  status: "active" | "disabled";
  failure_count: number;
  last_delivery_at: number | null;
  created_at: number;
}

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

export const endpointView = (e: EndpointRow, nextAttemptAt: number | null): WebhookEndpoint => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: JSON.parse(e.events),
  status: e.status,
  failureCount: e.failure_count,
  lastDeliveryAt: toIsoOrNull(e.last_delivery_at),
  createdAt: toIso(e.created_at),
  nextAttemptAt: toIsoOrNull(nextAttemptAt),
});

export const hookView = (e: EndpointRow): RestHook => ({
  id: e.id,
  targetUrl: e.url,
  event: (JSON.parse(e.events) as string[])[0]!,
  status: e.status,
  createdAt: toIso(e.created_at),
});

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

export function insertEndpoint(
  db: Db,
  input: {
    workspaceId: string;
    kind: EndpointKind;
    url: string;
    description: string | null;
    events: string[];
    secretSealed: string;
  },
  now: number,
): EndpointRow {
  const row: EndpointRow = {
    id: newId(now),
    workspace_id: input.workspaceId,
    kind: input.kind,
    url: input.url,
    description: input.description,
    events: JSON.stringify([...new Set(input.events)]),
    secret_sealed: input.secretSealed,
    status: "active",
    failure_count: 0,
    last_delivery_at: null,
    created_at: now,
  };
  stmt(
    db,
    `INSERT INTO webhook_endpoints (id, workspace_id, kind, url, description, events, secret_sealed, status, failure_count, last_delivery_at, created_at)
     VALUES (@id, @workspace_id, @kind, @url, @description, @events, @secret_sealed, @status, @failure_count, @last_delivery_at, @created_at)`,
  ).run(row);
  return row;
}

export const getEndpoint = (db: Db, workspaceId: string, kind: EndpointKind, id: string) =>
  stmt<[string, string, string], EndpointRow>(
    db,
    "SELECT * FROM webhook_endpoints WHERE id = ? AND workspace_id = ? AND kind = ?",
  ).get(id, workspaceId, kind);

export const listEndpoints = (db: Db, workspaceId: string, kind: EndpointKind) =>
  stmt<[string, string], EndpointRow>(
    db,
    "SELECT * FROM webhook_endpoints WHERE workspace_id = ? AND kind = ? ORDER BY id",
  ).all(workspaceId, kind);

/** Earliest due attempt of each endpoint's pending deliveries (uses the partial due index). */
export function nextAttempts(db: Db, workspaceId: string): Map<string, number> {
  const rows = stmt<[string], { endpoint_id: string; next: number }>(
    db,
    `SELECT endpoint_id, min(next_attempt_at) AS next FROM webhook_deliveries
     WHERE status = 'pending' AND held = 0 AND workspace_id = ? GROUP BY endpoint_id`,
  ).all(workspaceId);
  return new Map(rows.map((r) => [r.endpoint_id, r.next]));
}

export function updateEndpoint(
  db: Db,
  id: string,
  patch: {
    url?: string;
    events?: string[];
    description?: string | null;
    status?: "active" | "disabled";
  },
) {
  const sets: string[] = [];
  const params: Record<string, unknown> = { id };
  if (patch.url !== undefined) {
    sets.push("url = @url");
    params.url = patch.url;
  }
  if (patch.events !== undefined) {
    sets.push("events = @events");
    params.events = JSON.stringify([...new Set(patch.events)]);
  }
  if (patch.description !== undefined) {
    sets.push("description = @description");
    params.description = patch.description;
  }
  if (patch.status !== undefined) {
    sets.push("status = @status");
    params.status = patch.status;
    // Re-enabling starts the twenty-failure count again (spec Webhook endpoint status).
    if (patch.status === "active") sets.push("failure_count = 0");
  }
  if (sets.length === 0) return;
  db.prepare(`UPDATE webhook_endpoints SET ${sets.join(", ")} WHERE id = @id`).run(params);
  if (patch.status !== undefined) holdPending(db, id, patch.status === "disabled");
}

/** Disabled endpoints' pending deliveries wait, out of the dispatcher's due index, until re-enabled. */
export const holdPending = (db: Db, endpointId: string, held: boolean) =>
  stmt(
    db,
    "UPDATE webhook_deliveries SET held = ? WHERE endpoint_id = ? AND status = 'pending'",
  ).run(held ? 1 : 0, endpointId);

export const setEndpointSecret = (db: Db, id: string, sealed: string) =>
  stmt(db, "UPDATE webhook_endpoints SET secret_sealed = ? WHERE id = ?").run(sealed, id);

export const deleteEndpoint = (db: Db, id: string) =>
  stmt(db, "DELETE FROM webhook_endpoints WHERE id = ?").run(id);

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
