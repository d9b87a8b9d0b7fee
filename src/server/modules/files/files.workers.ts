import type { BootstrapResult } from "@/server/bootstrap";
import { createDemoContent } from "@/server/demo/demo-content";
import type { AppDeps } from "@/server/deps";

const PURGE_EVERY_MS = 3_600_000;

/**
 * The trash purge recurs hourly: each run first enqueues the next slot, so a run that fails
 * still leaves the next one queued. The unique key names the slot, so a restart (which enqueues
 * the current slot) never stacks duplicate runs.
 */
function enqueuePurge(deps: AppDeps, at: number) {
  const slot = Math.floor(at / PURGE_EVERY_MS);
  deps.jobs.enqueue("files.purge", {}, { runAt: at, uniqueKey: `files.purge:${slot}` });
}

export function registerFilesWorkers(deps: AppDeps, boot: BootstrapResult) {
  deps.jobs.register("files.purge", {
    // The next slot is the retry: a failing run must not end the chain, and retries of its own
    // would only queue up beside the next hour's run.
    maxAttempts: 1,
    run: () => {
      const now = deps.clock.now();
      enqueuePurge(deps, (Math.floor(now / PURGE_EVERY_MS) + 1) * PURGE_EVERY_MS);
      const purged = deps.files.purgeExpired();
      if (purged.items || purged.blobs) deps.log.info("trash purged", purged);
    },
  });
  enqueuePurge(deps, deps.clock.now());

  deps.jobs.register("files.demo", {
    maxAttempts: 1,
    run: async (payload) => {
      const { workspaceId } = payload as { workspaceId: string };
      await createDemoContent(deps, workspaceId);
    },
  });
  // A durable job rather than work at start-up: the service answers at once and the demo
  // project appears a few seconds later, even if the first start is interrupted.
  if (boot.created && deps.config.demoContent) {
    deps.jobs.enqueue(
      "files.demo",
      { workspaceId: boot.workspace.id },
      { uniqueKey: "files.demo" },
    );
  }
}
