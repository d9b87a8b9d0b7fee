import type { BootstrapResult } from "@/server/bootstrap";
import { createDemoContent } from "@/server/demo/demo-content";
import type { AppDeps } from "@/server/deps";
import { collectBlobs } from "./trash.service";

const PURGE_EVERY_MS = 3_600_000;
const TEMP_MAX_AGE_MS = 86_400_000;

/**
 * The hourly purge: expired trash items, then blobs nobody references, then stale temp files.
 * It records no event: it is the service keeping a promise made at `file.trashed` (`purgeAt`),
 * not something a person did, and an hour's expiries would flood the stream.
 */
export async function purgeExpired(deps: AppDeps) {
  const now = deps.clock.now();
  let items = 0;
  // One item a transaction keeps each write lock short next to live traffic.
  for (let n = 1; n > 0; items += n) n = await deps.upkeepStore.purgeExpiredTrash(now, 1);
  const blobs = collectBlobs(deps.db, deps.files.blobs);
  deps.files.blobs.sweepTemp(TEMP_MAX_AGE_MS, Date.now());
  // A bucket's deletions run after the purge's transactions (the disk's ran inside them).
  const deleted = await deps.files.blobs.deleteDue();
  if (items || blobs || deleted)
    deps.log.info("trash purged", { items, blobs, ...(deleted ? { deleted } : {}) });
}

export function registerFilesWorkers(deps: AppDeps, boot: BootstrapResult) {
  deps.jobs.every("files.purge", PURGE_EVERY_MS, () => purgeExpired(deps));

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
