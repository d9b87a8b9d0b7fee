import type { BootstrapResult } from "@/server/bootstrap";
import type { AppDeps } from "@/server/deps";
import { registerFilesWorkers } from "@/server/modules/files/files.workers";

/**
 * Registers every area's durable job kinds and long-running loops. Returns what stops the loops;
 * the job runner itself is stopped by the caller.
 */
export async function registerWorkers(
  deps: AppDeps,
  boot: BootstrapResult,
): Promise<() => Promise<void>> {
  registerFilesWorkers(deps, boot);
  deps.webhooks.start();
  return async () => {
    await deps.webhooks.stop();
  };
}
