import type { BootstrapResult } from "@/server/bootstrap";
import type { AppDeps } from "@/server/deps";
import { registerBulkWorkers } from "@/server/modules/bulk/bulk.workers";
import { registerEventsWorkers } from "@/server/modules/events/events.workers";
import { registerFilesWorkers } from "@/server/modules/files/files.workers";
import { registerMailWorkers } from "@/server/modules/mail/mail.workers";
import { registerMediaWorkers } from "@/server/modules/media/media.workers";
import { registerOperationsWorkers } from "@/server/modules/operations/operations.workers";
import { registerPortalsWorkers } from "@/server/modules/portals/portals.workers";
import { registerSharesWorkers } from "@/server/modules/shares/shares.workers";
import { registerTransfersWorkers } from "@/server/modules/transfers/transfers.workers";
import { registerNodeWorkers } from "@/server/node/node.workers";

/**
 * Registers every area's durable job kinds and long-running loops. Returns what stops the loops;
 * the job runner itself is stopped by the caller. `threads: false` keeps every job on the main
 * thread, where a test's manual clock reaches it. `start: false` (a process without the workers
 * role) registers the kinds, which requests enqueue, but starts no loop.
 */
export async function registerWorkers(
  deps: AppDeps,
  boot: BootstrapResult,
  opts: { threads?: boolean; start?: boolean } = {},
): Promise<() => Promise<void>> {
  registerFilesWorkers(deps, boot);
  registerOperationsWorkers(deps);
  registerBulkWorkers(deps, { thread: opts.threads ?? true });
  registerEventsWorkers(deps);
  registerTransfersWorkers(deps);
  registerSharesWorkers(deps);
  registerMailWorkers(deps);
  registerPortalsWorkers(deps);
  registerMediaWorkers(deps);
  registerNodeWorkers(deps);
  // Webhook delivery is a lease loop of its own beside the job runner (docs/architecture.md).
  if (opts.start !== false) deps.webhooks.start();
  return async () => {
    await deps.webhooks.stop();
  };
}
