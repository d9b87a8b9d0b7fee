import { EventEmitter } from "node:events";
import type { Db } from "../../db/database";
import type { Clock } from "../../lib/clock";
import { newId } from "../../lib/ids";

export interface EventRow {
  id: string;
  workspace_id: string;
  type: string;
  data: string;
  created_at: number;
}

/**
 * Writes events on the caller's connection, so an event commits or rolls back with the change
 * that caused it. Listeners hear of it on the next turn of the loop, after the transaction.
 */
export class EventRecorder {
  readonly bus = new EventEmitter();

  constructor(
    private db: Db,
    private clock: Clock,
  ) {}

  record(workspaceId: string, type: string, data: Record<string, unknown>): string {
    const now = this.clock.now();
    const id = newId();
    this.db
      .prepare("INSERT INTO events (id, workspace_id, type, data, created_at) VALUES (?, ?, ?, ?, ?)")
      .run(id, workspaceId, type, JSON.stringify(data), now);
    setImmediate(() => this.bus.emit("recorded", { id, workspaceId, type }));
    return id;
  }
}
