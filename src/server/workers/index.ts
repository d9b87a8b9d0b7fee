import type { BootstrapResult } from "../bootstrap";
import type { AppDeps } from "../deps";

/**
 * Registers every area's durable job kinds and long-running loops. Returns what stops the loops;
 * the job runner itself is stopped by the caller.
 */
export async function registerWorkers(_deps: AppDeps, _boot: BootstrapResult): Promise<() => Promise<void>> {
  return async () => {};
}
