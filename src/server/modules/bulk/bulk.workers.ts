import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { AppDeps } from "@/server/deps";
import { leaseHeld } from "./bulk.repository";
import { BULK_JOB_KIND, BulkService, DEFAULT_BATCH } from "./bulk.service";

/**
 * Runs bulk jobs on the durable runner, one batch per turn of the event loop so requests
 * interleave with the work. A batch runs only while this runner holds the job's lease: after a
 * stop (or a lost lease) the runner that takes the job over continues from the stored cursor.
 */
export function registerBulkWorkers(deps: AppDeps, opts: { batchSize?: number } = {}) {
  const bulk = new BulkService(deps, opts.batchSize ?? DEFAULT_BATCH);
  deps.jobs.register(BULK_JOB_KIND, {
    maxAttempts: 5,
    backoffMs: () => 5_000,
    run: async (payload, job) => {
      const { bulkJobId } = payload as { bulkJobId: string };
      const ours = () => leaseHeld(deps.db, job.id, deps.jobs.owner);
      try {
        while (bulk.runBatch(bulkJobId, ours)) await yieldToLoop();
      } catch (err) {
        if (job.attempts < job.maxAttempts) throw err;
        bulk.fail(bulkJobId, err instanceof Error ? err.message : String(err));
      }
    },
  });
}
