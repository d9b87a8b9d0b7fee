import { EVENTS_RETENTION_DAYS } from "@/contract/events";
import type { Db } from "@/server/db/database";
import type { AppDeps } from "@/server/deps";
import { deleteEventsBefore } from "./events.repository";

const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;
// Each batch is its own short write, so the dispatcher and requests interleave with a big prune.
const PRUNE_BATCH = 2000;

/** Deletes the events past retention, and with them their webhook deliveries and attempts. */
export function pruneExpiredEvents(db: Db, now: number): number {
  const cutoff = now - EVENTS_RETENTION_DAYS * DAY_MS;
  let removed = 0;
  for (;;) {
    const changes = deleteEventsBefore(db, cutoff, PRUNE_BATCH);
    removed += changes;
    if (changes < PRUNE_BATCH) return removed;
  }
}

export function registerEventsWorkers(deps: AppDeps) {
  deps.jobs.every("events.prune", PRUNE_EVERY_MS, () => {
    const removed = pruneExpiredEvents(deps.db, deps.clock.now());
    if (removed > 0) deps.log.info("events pruned", { removed });
  });
}
