import { EventEmitter } from "node:events";
import type { EventsPage } from "@/contract/events";
import { type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Clock } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import {
  type AnnouncedEvent,
  type EventRow,
  eventView,
  type RecordedEvent,
} from "./events.repository";

/** Another module's reaction to every event, in the event's transaction (see FanOut). */
export type PgFanOut = (c: PgClient, event: RecordedEvent) => Promise<number>;

/**
 * The event stream's one lock. A sequence, or max(seq)+1 alone, hands out seq in statement order
 * but transactions commit in any order, so a reader paging by seq could pass over an event that
 * commits after it read a larger one. Holding this lock from the event's INSERT to the commit
 * makes seq follow commit order, as SQLite's write lock does.
 */
const STREAM_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('consign:events', 0))";

/**
 * Records events on PostgreSQL inside the caller's transaction, as EventRecorder does on SQLite.
 * The caller must run at READ COMMITTED (the default): the INSERT's max(seq) is read in a
 * statement that starts after the lock is granted, so it sees the previous holder's event.
 * Event-writing transactions queue on the lock from their event to their commit, so a unit
 * records its event as its last write.
 */
export class PgEventRecorder {
  readonly bus = new EventEmitter();
  private readonly fanOuts: PgFanOut[] = [];

  constructor(private readonly clock: Clock) {}

  /** Registered once at start-up by a module that reacts to events. */
  addFanOut(fanOut: PgFanOut) {
    this.fanOuts.push(fanOut);
  }

  /** Writes an event and its fan-outs in the caller's transaction; announce() after the commit. */
  async write(
    c: PgClient,
    workspaceId: string,
    type: string,
    data: Record<string, unknown>,
  ): Promise<AnnouncedEvent> {
    const event: RecordedEvent = {
      id: newId(),
      workspaceId,
      type,
      data,
      createdAt: this.clock.now(),
    };
    await c.query(STREAM_LOCK);
    await c.query(
      `INSERT INTO events (id, workspace_id, type, data, created_at, seq)
       SELECT $1, $2, $3, $4, $5, coalesce(max(seq), 0) + 1 FROM events`,
      [event.id, workspaceId, type, JSON.stringify(data), event.createdAt],
    );
    let fannedOut = 0;
    for (const fanOut of this.fanOuts) fannedOut += await fanOut(c, event);
    return { id: event.id, workspaceId, type, fannedOut };
  }

  /** Tells this process's listeners, once the event's transaction has committed. */
  announce(announced: AnnouncedEvent) {
    setImmediate(() => this.bus.emit("recorded", announced));
  }

  /** An event on its own, in a transaction of its own. */
  async record(pool: PgPool, workspaceId: string, type: string, data: Record<string, unknown>) {
    const announced = await withPgTransaction(pool, (c) => this.write(c, workspaceId, type, data));
    this.announce(announced);
    return announced.id;
  }
}

/**
 * One page of the stream, paged by commit order (seq), as eventsPage() on SQLite: the cursor is
 * an event id; an unknown one (pruned, or from elsewhere) maps to the last event at or before it.
 */
export async function eventsPagePg(
  pool: PgPool,
  workspaceId: string,
  q: { after?: string | undefined; types: string[]; limit: number; latest?: boolean | undefined },
): Promise<EventsPage> {
  // Each query in two texts, with the type filter (its last parameter) and without.
  const filtered = q.types.length > 0;
  const typeFilter = (n: number) => (filtered ? `AND type = ANY($${n}::text[])` : "");
  const params = (first: unknown[]) => (filtered ? [...first, q.types] : first);
  if (q.after === undefined && q.latest) {
    const { rows } = await pool.query<EventRow>(
      `SELECT * FROM (SELECT * FROM events WHERE workspace_id = $1 ${typeFilter(3)}
         ORDER BY seq DESC LIMIT $2) latest ORDER BY seq`,
      params([workspaceId, q.limit]),
    );
    return { events: rows.map(eventView), next: rows.at(-1)?.id ?? null, hasMore: false };
  }
  const { rows } = await pool.query<EventRow>(
    `SELECT * FROM events WHERE workspace_id = $1 ${typeFilter(4)}
       AND seq > coalesce(
         (SELECT seq FROM events WHERE id = $3 AND workspace_id = $1),
         (SELECT max(seq) FROM events WHERE workspace_id = $1 AND id <= $3),
         0)
     ORDER BY seq LIMIT $2`,
    params([workspaceId, q.limit + 1, q.after ?? ""]),
  );
  const hasMore = rows.length > q.limit;
  if (hasMore) rows.pop();
  return { events: rows.map(eventView), next: rows.at(-1)?.id ?? q.after ?? null, hasMore };
}
