import type { BootstrapResult } from "@/server/bootstrap";
import type { AppDeps } from "@/server/deps";
import { registerBulkWorkers } from "@/server/modules/bulk/bulk.workers";
import { registerEventsWorkers } from "@/server/modules/events/events.workers";
import { registerFilesWorkers } from "@/server/modules/files/files.workers";
import { registerOperationsWorkers } from "@/server/modules/operations/operations.workers";

/**
 * Registers every area's durable job kinds and long-running loops. Returns what stops the loops;
 * the job runner itself is stopped by the caller.
 */
export async function registerWorkers(
  deps: AppDeps,
  boot: BootstrapResult,
): Promise<() => Promise<void>> {
  registerFilesWorkers(deps, boot);
  registerOperationsWorkers(deps);
  registerBulkWorkers(deps);
  registerEventsWorkers(deps);
  // Webhook delivery is a lease loop of its own beside the job runner (docs/architecture.md).
  deps.webhooks.start();
  return async () => {
    await deps.webhooks.stop();
  };
}
