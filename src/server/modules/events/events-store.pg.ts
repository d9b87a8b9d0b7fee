import type { PgPool } from "@/server/db/pg/pool";
import { eventsPagePg } from "./events.pg";
import type { EventsPageQuery, EventsStore } from "./events-store";

/** The stream's pages on PostgreSQL: seq follows commit order there too (events.pg.ts says how). */
export class PgEventsStore implements EventsStore {
  constructor(private readonly pool: PgPool) {}

  page(workspaceId: string, q: EventsPageQuery) {
    return eventsPagePg(this.pool, workspaceId, q);
  }
}
