import type { BootstrapResult } from "../../bootstrap";
import { createDemoContent } from "../../demo/demo-content";
import type { AppDeps } from "../../deps";

const PURGE_EVERY_MS = 3_600_000;

/**
 * The trash purge recurs hourly: each run enqueues the next slot. The unique key names the
 * slot, so a restart (which enqueues the current slot) never stacks duplicate runs.
 */
function enqueuePurge(deps: AppDeps, at: number) {
  const slot = Math.floor(at / PURGE_EVERY_MS);
  deps.jobs.enqueue("files.purge", {}, { runAt: at, uniqueKey: `files.purge:${slot}` });
}

export function registerFilesWorkers(deps: AppDeps, boot: BootstrapResult) {
  deps.jobs.register("files.purge", {
    run: () => {
      const purged = deps.files.purgeExpired();
      if (purged.items || purged.blobs) deps.log.info("trash purged", purged);
      const now = deps.clock.now();
      enqueuePurge(deps, (Math.floor(now / PURGE_EVERY_MS) + 1) * PURGE_EVERY_MS);
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
