import { EventEmitter } from "node:events";
import type { Statement } from "better-sqlite3";
import { type Event, type EventsPage, WEBHOOK_TEST } from "@/contract/events";
import type { Db } from "@/server/db/database";
import { type Clock, toIso } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";

export interface EventRow {
  id: string;
  workspace_id: string;
  type: string;
  data: string;
  created_at: number;
  seq: number;
}

/** What the bus carries on "recorded"; `deliveries` lets the dispatcher skip events nobody wants. */
export interface RecordedEvent {
  id: string;
  workspaceId: string;
  type: string;
  deliveries: number;
}

/**
 * Writes events on the caller's connection, so an event commits or rolls back with the change
 * that caused it, and fans it out in the same transaction: one pending delivery per matching
 * active endpoint. Listeners hear of it on the next turn of the loop, after the transaction.
 */
export class EventRecorder {
  readonly bus = new EventEmitter();
  private readonly insertEvent: Statement;
  private readonly subscribers: Statement<[string, string], { id: string }>;
  private readonly testTarget: Statement<[string, string], { id: string }>;
  private readonly insertDelivery: Statement;
  private readonly write: (
    workspaceId: string,
    type: string,
    data: Record<string, unknown>,
    endpointId: string | null,
  ) => { eventId: string; deliveryIds: string[] };

  constructor(
    db: Db,
    private clock: Clock,
  ) {
    // seq is taken under the write lock inside the INSERT itself, so it follows commit order.
    this.insertEvent = db.prepare(
      `INSERT INTO events (id, workspace_id, type, data, created_at, seq)
       VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM events))`,
    );
    this.subscribers = db.prepare(
      `SELECT id FROM webhook_endpoints e
       WHERE workspace_id = ? AND status = 'active'
         AND EXISTS (SELECT 1 FROM json_each(e.events) WHERE value IN (?, '*'))`,
    );
    this.testTarget = db.prepare(
      "SELECT id FROM webhook_endpoints WHERE id = ? AND workspace_id = ? AND status = 'active'",
    );
    this.insertDelivery = db.prepare(
      `INSERT INTO webhook_deliveries
         (id, workspace_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
    );
    // A savepoint when the caller has a transaction open; its own transaction otherwise, so the
    // event and its deliveries are never split.
    this.write = db.transaction((workspaceId, type, data, endpointId) => {
      const now = this.clock.now();
      const eventId = newId();
      this.insertEvent.run(eventId, workspaceId, type, JSON.stringify(data), now);
      const targets =
        endpointId === null
          ? this.subscribers.all(workspaceId, type)
          : this.testTarget.all(endpointId, workspaceId);
      const deliveryIds = targets.map((t) => {
        const id = newId();
        this.insertDelivery.run(id, workspaceId, t.id, eventId, type, now, now);
        return id;
      });
      return { eventId, deliveryIds };
    });
  }

  record(workspaceId: string, type: string, data: Record<string, unknown>): string {
    return this.recordAndAnnounce(workspaceId, type, data, null).eventId;
  }

  /** `webhook.test` goes to the endpoint under test only, and only while it is active. */
  recordTest(workspaceId: string, endpointId: string, data: Record<string, unknown>) {
    const { eventId, deliveryIds } = this.recordAndAnnounce(
      workspaceId,
      WEBHOOK_TEST,
      data,
      endpointId,
    );
    return { eventId, deliveryId: deliveryIds[0] ?? null };
  }

  private recordAndAnnounce(
    workspaceId: string,
    type: string,
    data: Record<string, unknown>,
    endpointId: string | null,
  ) {
    const result = this.write(workspaceId, type, data, endpointId);
    const recorded: RecordedEvent = {
      id: result.eventId,
      workspaceId,
      type,
      deliveries: result.deliveryIds.length,
    };
    setImmediate(() => this.bus.emit("recorded", recorded));
    return result;
  }
}

const eventView = (e: EventRow): Event => ({
  id: e.id,
  type: e.type,
  createdAt: toIso(e.created_at),
  workspaceId: e.workspace_id,
  data: JSON.parse(e.data),
});

/**
 * One page of the stream, paged by commit order (seq). The cursor is an event id: a known id
 * maps to its seq; an unknown one (pruned, or from elsewhere) to the last event at or before it.
 */
export function eventsPage(
  db: Db,
  workspaceId: string,
  q: { after?: string | undefined; types: string[]; limit: number; latest?: boolean | undefined },
): EventsPage {
  const typeFilter = q.types.length > 0 ? "AND type IN (SELECT value FROM json_each(@types))" : "";
  const params = { ws: workspaceId, types: JSON.stringify(q.types), limit: q.limit + 1, cursor: 0 };
  let rows: EventRow[];
  if (q.after === undefined && q.latest) {
    rows = db
      .prepare(
        `SELECT * FROM (SELECT * FROM events WHERE workspace_id = @ws ${typeFilter} ORDER BY seq DESC LIMIT @limit)
         ORDER BY seq`,
      )
      .all({ ...params, limit: q.limit }) as EventRow[];
    return { events: rows.map(eventView), next: rows.at(-1)?.id ?? null, hasMore: false };
  }
  if (q.after !== undefined) {
    params.cursor = db
      .prepare(
        `SELECT coalesce(
           (SELECT seq FROM events WHERE id = @after AND workspace_id = @ws),
           (SELECT max(seq) FROM events WHERE workspace_id = @ws AND id <= @after),
           0)`,
      )
      .pluck()
      .get({ ws: workspaceId, after: q.after }) as number;
  }
  rows = db
    .prepare(
      `SELECT * FROM events WHERE workspace_id = @ws AND seq > @cursor ${typeFilter} ORDER BY seq LIMIT @limit`,
    )
    .all(params) as EventRow[];
  const hasMore = rows.length > q.limit;
  if (hasMore) rows.pop();
  return { events: rows.map(eventView), next: rows.at(-1)?.id ?? q.after ?? null, hasMore };
}
