import { EventEmitter } from "node:events";
import type { Event, EventsPage } from "@/contract/events";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
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

/** An event as record() wrote it, handed to each fan-out inside the event's transaction. */
export interface RecordedEvent {
  id: string;
  workspaceId: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: number;
}

/** What the bus carries on "recorded", after the commit. */
export interface AnnouncedEvent {
  id: string;
  workspaceId: string;
  type: string;
  /** Rows the fan-outs wrote for it; zero lets a listener skip an event nobody acts on. */
  fannedOut: number;
}

/**
 * Another module's reaction to every event, written in the event's own transaction on the
 * recorder's connection (webhooks: one pending delivery per subscribed endpoint). Returns how
 * many rows it wrote.
 */
export type FanOut = (db: Db, event: RecordedEvent) => number;

/**
 * Writes events on the caller's connection, so an event commits or rolls back with the change
 * that caused it, and runs the fan-outs registered at start-up in the same transaction, so an
 * event and what it fans out to are never split. Listeners hear of it on the next turn of the
 * loop, after the transaction.
 */
export class EventRecorder {
  readonly bus = new EventEmitter();
  private readonly fanOuts: FanOut[] = [];
  private readonly write: (
    workspaceId: string,
    type: string,
    data: Record<string, unknown>,
  ) => AnnouncedEvent;

  constructor(db: Db, clock: Clock) {
    // A savepoint when the caller has a transaction open; its own transaction otherwise.
    this.write = db.transaction((workspaceId, type, data) => {
      const event: RecordedEvent = { id: newId(), workspaceId, type, data, createdAt: clock.now() };
      insertEvent(db, event);
      let fannedOut = 0;
      for (const fanOut of this.fanOuts) fannedOut += fanOut(db, event);
      return { id: event.id, workspaceId, type, fannedOut };
    });
  }

  /** Registered once at start-up by a module that reacts to events. */
  addFanOut(fanOut: FanOut) {
    this.fanOuts.push(fanOut);
  }

  record(workspaceId: string, type: string, data: Record<string, unknown>): string {
    const announced = this.write(workspaceId, type, data);
    setImmediate(() => this.bus.emit("recorded", announced));
    return announced.id;
  }
}

// seq is taken under the write lock inside the INSERT itself, so it follows commit order.
const insertEvent = (db: Db, e: RecordedEvent) =>
  stmt(
    db,
    `INSERT INTO events (id, workspace_id, type, data, created_at, seq)
     VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM events))`,
  ).run(e.id, e.workspaceId, e.type, JSON.stringify(e.data), e.createdAt);

export const eventView = (e: EventRow): Event => ({
  id: e.id,
  type: e.type,
  createdAt: toIso(e.created_at),
  workspaceId: e.workspace_id,
  data: JSON.parse(e.data),
});

export const getEvent = (db: Db, id: string) =>
  stmt<[string], EventRow>(db, "SELECT * FROM events WHERE id = ?").get(id);

/** The workspace's latest events of one type, newest first. */
export const latestEventsOfType = (db: Db, workspaceId: string, type: string, limit: number) =>
  stmt<[string, string, number], EventRow>(
    db,
    "SELECT * FROM events WHERE workspace_id = ? AND type = ? ORDER BY seq DESC LIMIT ?",
  ).all(workspaceId, type, limit);

/**
 * Deletes up to `limit` events created before `cutoff`; their webhook deliveries and attempts go
 * with them (foreign-key cascade). Batched so that no one transaction holds the lock for long.
 */
export const deleteEventsBefore = (db: Db, cutoff: number, limit: number) =>
  stmt<[number, number]>(
    db,
    "DELETE FROM events WHERE id IN (SELECT id FROM events WHERE created_at < ? LIMIT ?)",
  ).run(cutoff, limit).changes;

/**
 * One page of the stream, paged by commit order (seq). The cursor is an event id: a known id
 * maps to its seq; an unknown one (pruned, or from elsewhere) to the last event at or before it.
 */
export function eventsPage(
  db: Db,
  workspaceId: string,
  q: { after?: string | undefined; types: string[]; limit: number; latest?: boolean | undefined },
): EventsPage {
  // Two texts, one with the type filter and one without, each prepared once.
  const typeFilter = q.types.length > 0 ? "AND type IN (SELECT value FROM json_each(@types))" : "";
  const params = { ws: workspaceId, types: JSON.stringify(q.types), limit: q.limit + 1, cursor: 0 };
  let rows: EventRow[];
  if (q.after === undefined && q.latest) {
    rows = stmt<[typeof params], EventRow>(
      db,
      `SELECT * FROM (SELECT * FROM events WHERE workspace_id = @ws ${typeFilter} ORDER BY seq DESC LIMIT @limit)
       ORDER BY seq`,
    ).all({ ...params, limit: q.limit });
    return { events: rows.map(eventView), next: rows.at(-1)?.id ?? null, hasMore: false };
  }
  if (q.after !== undefined) {
    params.cursor = stmt<[{ ws: string; after: string }], { seq: number }>(
      db,
      `SELECT coalesce(
         (SELECT seq FROM events WHERE id = @after AND workspace_id = @ws),
         (SELECT max(seq) FROM events WHERE workspace_id = @ws AND id <= @after),
         0) AS seq`,
    ).get({ ws: workspaceId, after: q.after })!.seq;
  }
  rows = stmt<[typeof params], EventRow>(
    db,
    `SELECT * FROM events WHERE workspace_id = @ws AND seq > @cursor ${typeFilter} ORDER BY seq LIMIT @limit`,
  ).all(params);
  const hasMore = rows.length > q.limit;
  if (hasMore) rows.pop();
  return { events: rows.map(eventView), next: rows.at(-1)?.id ?? q.after ?? null, hasMore };
}
