import { setImmediate as yieldToLoop } from "node:timers/promises";
import { parentPort, workerData } from "node:worker_threads";
import { createDeps } from "@/server/deps";
import type { Config } from "@/server/env";
import { lowerThreadPriority } from "@/server/workers/threads";
import { batchRunner } from "./bulk-selection";

/** What the main thread hands a bulk job's thread (see bulk.workers.ts). */
export interface BulkThreadInput {
  config: Config;
  bulkJobId: string;
  runnerJobId: string;
  owner: string;
  batchSize: number;
}

/** What the thread tells the main thread. */
export type BulkThreadMessage =
  | {
      type: "recorded";
      event: { id: string; workspaceId: string; type: string; fannedOut: number };
    }
  | { type: "done" };

const input = workerData as BulkThreadInput;
lowerThreadPriority();
// Its own connection: the main thread's reads go on beside this thread's writes (WAL).
const deps = createDeps(input.config);
const runner = batchRunner(input.batchSize);
const post = (message: BulkThreadMessage) => parentPort?.postMessage(message);
// The main thread's listeners (webhook dispatcher, event stream) hear of events written here.
deps.events.bus.on("recorded", (event) => post({ type: "recorded", event }));
const lease = { runnerJobId: input.runnerJobId, owner: input.owner };
try {
  while (await deps.bulkStore.runBatch(runner, input.bulkJobId, lease)) await yieldToLoop();
  // The "recorded" announcements go out on the next turn; let them leave before "done".
  await yieldToLoop();
  post({ type: "done" });
} finally {
  deps.db.close();
}
