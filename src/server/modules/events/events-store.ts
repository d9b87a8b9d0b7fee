import type { EventsPage } from "@/contract/events";
import type { Db } from "@/server/db/database";
import { eventsPage } from "./events.repository";

export interface EventsPageQuery {
  after?: string | undefined;
  types: string[];
  limit: number;
  latest?: boolean | undefined;
}

/**
 * The event stream's reads (docs/scale-out.md, Events): a page in commit order after a cursor.
 * Recording stays with each unit, in its transaction (EventRecorder, PgEventRecorder). SQLite's
 * implementation runs eventsPage; PostgreSQL's is events-store.pg.ts, and both answer alike
 * (events-store.test.ts).
 */
export interface EventsStore {
  page(workspaceId: string, q: EventsPageQuery): Promise<EventsPage>;
}

export class SqliteEventsStore implements EventsStore {
  constructor(private readonly db: Db) {}

  async page(workspaceId: string, q: EventsPageQuery) {
    return eventsPage(this.db, workspaceId, q);
  }
}
