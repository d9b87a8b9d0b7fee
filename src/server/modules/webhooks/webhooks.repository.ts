import type { RestHook, WebhookEndpoint } from "@/contract/webhooks";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { holdPending } from "./deliveries.repository";

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

export interface NewEndpoint {
  workspaceId: string;
  kind: EndpointKind;
  url: string;
  description: string | null;
  events: string[];
  secretSealed: string;
}

/** A new endpoint's row, as both engines insert it. */
export const newEndpointRow = (input: NewEndpoint, now: number): EndpointRow => ({
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
});

export function insertEndpoint(db: Db, input: NewEndpoint, now: number): EndpointRow {
  const row = newEndpointRow(input, now);
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

export interface EndpointPatch {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: "active" | "disabled";
}

/** The columns a patch sets, by name, as both engines write them. */
export function endpointChanges(patch: EndpointPatch): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  if (patch.url !== undefined) set.url = patch.url;
  if (patch.events !== undefined) set.events = JSON.stringify([...new Set(patch.events)]);
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.status !== undefined) {
    set.status = patch.status;
    // Re-enabling starts the twenty-failure count again (spec Webhook endpoint status).
    if (patch.status === "active") set.failure_count = 0;
  }
  return set;
}

export function updateEndpoint(db: Db, id: string, patch: EndpointPatch) {
  const set = endpointChanges(patch);
  const columns = Object.keys(set);
  if (columns.length === 0) return;
  // One text per combination of members given (a few dozen at most), each prepared once.
  stmt(
    db,
    `UPDATE webhook_endpoints SET ${columns.map((k) => `${k} = @${k}`).join(", ")} WHERE id = @id`,
  ).run({ ...set, id });
  if (patch.status !== undefined) holdPending(db, id, patch.status === "disabled");
}

export const setEndpointSecret = (db: Db, id: string, sealed: string) =>
  stmt(db, "UPDATE webhook_endpoints SET secret_sealed = ? WHERE id = ?").run(sealed, id);

export const deleteEndpoint = (db: Db, id: string) =>
  stmt(db, "DELETE FROM webhook_endpoints WHERE id = ?").run(id);

/** Whether any secret has been sealed (guards the signing key file's creation). */
export const anyEndpointExists = (db: Db) =>
  stmt(db, "SELECT 1 FROM webhook_endpoints LIMIT 1").get() !== undefined;

/** The most recently sealed secret, to check at start-up that the key file still opens it. */
export const latestSealedSecret = (db: Db) =>
  stmt<[], { secret_sealed: string }>(
    db,
    "SELECT secret_sealed FROM webhook_endpoints ORDER BY id DESC LIMIT 1",
  ).get()?.secret_sealed;

export const endpointHealth = (db: Db, id: string) =>
  stmt<[string], Pick<EndpointRow, "status" | "failure_count" | "kind">>(
    db,
    "SELECT status, failure_count, kind FROM webhook_endpoints WHERE id = ?",
  ).get(id);

export const setEndpointHealth = (
  db: Db,
  id: string,
  h: { failureCount: number; status: EndpointRow["status"]; lastDeliveryAt: number },
) =>
  stmt(
    db,
    "UPDATE webhook_endpoints SET failure_count = ?, status = ?, last_delivery_at = ? WHERE id = ?",
  ).run(h.failureCount, h.status, h.lastDeliveryAt, id);
