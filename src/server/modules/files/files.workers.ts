import type { BootstrapResult } from "@/server/bootstrap";
import { createDemoContent } from "@/server/demo/demo-content";
import type { AppDeps } from "@/server/deps";

const PURGE_EVERY_MS = 3_600_000;

export function registerFilesWorkers(deps: AppDeps, boot: BootstrapResult) {
  deps.jobs.every("files.purge", PURGE_EVERY_MS, async () => {
    const purged = deps.files.purgeExpired();
    // A bucket's deletions run after the purge's transactions (the disk's ran inside them).
    const deleted = await deps.files.blobs.deleteDue();
    if (purged.items || purged.blobs || deleted)
      deps.log.info("trash purged", { ...purged, ...(deleted ? { deleted } : {}) });
  });

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
