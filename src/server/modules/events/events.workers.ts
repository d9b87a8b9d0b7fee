import { EVENTS_RETENTION_DAYS } from "@/contract/events";
import type { AppDeps } from "@/server/deps";

const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;
// Each batch is its own short write, so the dispatcher and requests interleave with a big prune.
const PRUNE_BATCH = 2000;

/** Deletes the events past retention, and with them their webhook deliveries and attempts. */
async function pruneExpiredEvents(deps: AppDeps, now: number): Promise<number> {
  const cutoff = now - EVENTS_RETENTION_DAYS * DAY_MS;
  let removed = 0;
  for (;;) {
    const changes = await deps.upkeepStore.pruneEvents(cutoff, PRUNE_BATCH);
    removed += changes;
    if (changes < PRUNE_BATCH) return removed;
  }
}

export function registerEventsWorkers(deps: AppDeps) {
  deps.jobs.every("events.prune", PRUNE_EVERY_MS, async () => {
    const removed = await pruneExpiredEvents(deps, deps.clock.now());
    if (removed > 0) deps.log.info("events pruned", { removed });
  });
}
