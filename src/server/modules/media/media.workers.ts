import type { AppDeps } from "@/server/deps";
import { renderJob } from "./render.job";
import { RENDER_JOB, TRANSCODE_JOB } from "./render.service";
import { renditionStore } from "./rendition-store";
import {
  deleteOrphanedProbes,
  dropRenditions,
  orphanedRenditions,
  renditionOnRecord,
} from "./renditions.repository";

const SWEEP_EVERY_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 500;

/**
 * Renditions of content no longer stored go with their files (after the hourly purge deleted
 * the blob), a batch per transaction; what was probed of it too.
 */
export async function sweepRenditions(deps: AppDeps) {
  const store = renditionStore(deps);
  for (;;) {
    const gone = orphanedRenditions(deps.db, SWEEP_BATCH);
    if (gone.length === 0) break;
    dropRenditions(
      deps.db,
      gone.map((r) => r.id),
    );
    // After the rows: a process that dies between leaves unreferenced bytes, never a ready row
    // without its bytes. In the bucket the key is the content's, not the row's: content stored
    // and queued again meanwhile has a row of the same key, and keeps the bytes.
    for (const r of gone) if (!renditionOnRecord(deps.db, r)) await store.remove(r);
  }
  deleteOrphanedProbes(deps.db);
}

export function registerMediaWorkers(deps: AppDeps) {
  deps.jobs.register(RENDER_JOB, renderJob(deps));
  // A transcode takes minutes and every core: a pool of its own, so it never holds the shared slots.
  deps.jobs.register(TRANSCODE_JOB, renderJob(deps, deps.config.mediaTranscodes));
  deps.jobs.every("media.sweep", SWEEP_EVERY_MS, () => sweepRenditions(deps));
}
