import { WEBHOOK_TEST } from "@/contract/events";
import { newId } from "@/server/lib/ids";
import type { PgFanOut } from "@/server/modules/events/events.pg";

/**
 * enqueueDeliveries on PostgreSQL, registered with PgEventRecorder: one pending delivery, due
 * now, per active endpoint subscribed to the type or to `*` (a `webhook.test` only to the endpoint
 * its data names), in the event's transaction. Ids are made here, as on SQLite, so deliveries
 * page by id the same on both engines.
 */
export const enqueueDeliveriesPg: PgFanOut = async (c, event) => {
  const { rows } =
    event.type === WEBHOOK_TEST
      ? await c.query<{ id: string }>(
          "SELECT id FROM webhook_endpoints WHERE id = $1 AND workspace_id = $2 AND status = 'active'",
          [String(event.data.webhookId), event.workspaceId],
        )
      : await c.query<{ id: string }>(
          `SELECT id FROM webhook_endpoints e
           WHERE workspace_id = $1 AND status = 'active'
             AND EXISTS (SELECT 1 FROM json_array_elements_text(e.events::json) t
                         WHERE t IN ($2, '*'))
           ORDER BY id`,
          [event.workspaceId, event.type],
        );
  if (rows.length === 0) return 0;
  await c.query(
    `INSERT INTO webhook_deliveries
       (id, workspace_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
     SELECT d.id, $3, d.endpoint_id, $4, $5, 'pending', 0, $6, $6
     FROM unnest($1::text[], $2::text[]) AS d(id, endpoint_id)`,
    [
      rows.map(() => newId()),
      rows.map((r) => r.id),
      event.workspaceId,
      event.id,
      event.type,
      event.createdAt,
    ],
  );
  return rows.length;
};
