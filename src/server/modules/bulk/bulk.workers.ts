import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { AppDeps } from "@/server/deps";
import { startTsThread } from "@/server/workers/threads";
import { BULK_JOB_KIND } from "./bulk.service";
import type { BulkThreadInput, BulkThreadMessage } from "./bulk.thread";
import { batchRunner, DEFAULT_BATCH } from "./bulk-selection";

/**
 * Runs bulk jobs on the durable runner. A batch runs only while this runner holds the job's
 * lease: after a stop (or a lost lease) the runner that takes the job over continues from the
 * stored cursor.
 *
 * With `thread` (the service does this), each job's batches run in a worker thread of their own
 * at the lowest CPU priority, on its own database connection: requests on the main thread do not
 * wait behind a batch (bench:jobs, files list p99 while a 100,000-item trash runs). Without it
 * (tests with a manual clock), one batch per turn of the event loop, so requests interleave.
 */
export function registerBulkWorkers(
  deps: AppDeps,
  opts: { batchSize?: number; thread?: boolean } = {},
) {
  const batchSize = opts.batchSize ?? DEFAULT_BATCH;
  const runner = batchRunner(batchSize);
  deps.jobs.register(BULK_JOB_KIND, {
    maxAttempts: 5,
    backoffMs: () => 5_000,
    run: async (payload, job) => {
      const { bulkJobId } = payload as { bulkJobId: string };
      try {
        if (opts.thread) {
          await runInThread(deps, {
            config: deps.config,
            bulkJobId,
            runnerJobId: job.id,
            owner: deps.jobs.owner,
            batchSize,
          });
        } else {
          const lease = { runnerJobId: job.id, owner: deps.jobs.owner };
          while (await deps.bulkStore.runBatch(runner, bulkJobId, lease)) await yieldToLoop();
        }
      } catch (err) {
        if (job.attempts < job.maxAttempts) throw err;
        const message = err instanceof Error ? err.message : String(err);
        await deps.bulkStore.failBulkJob(bulkJobId, message);
      }
    },
  });
}

function runInThread(deps: AppDeps, input: BulkThreadInput) {
  return new Promise<void>((resolve, reject) => {
    const thread = startTsThread(new URL("./bulk.thread.ts", import.meta.url), input);
    let done = false;
    thread.on("message", (message: BulkThreadMessage) => {
      if (message.type === "recorded") deps.events.bus.emit("recorded", message.event);
      else done = true;
    });
    thread.once("error", reject);
    thread.once("exit", (code) =>
      done ? resolve() : reject(new Error(`The bulk job's thread stopped (exit code ${code})`)),
    );
  });
}
