import { TRANSFER_RESUME_WINDOW_SECONDS } from "@/contract/rules";
import type { AppDeps } from "@/server/deps";
import { SPEC_CHECK_JOB, specCheckJob } from "./portal-spec";

const ABANDONED_EVERY_MS = 60 * 60 * 1000;

export function registerPortalsWorkers(deps: AppDeps) {
  deps.jobs.register(SPEC_CHECK_JOB, specCheckJob(deps));
  // A sender who closed the page for good leaves an upload `uploading`; once its transfer can
  // no longer resume, the queue shows it failed.
  deps.jobs.every("portals.abandoned", ABANDONED_EVERY_MS, async () => {
    const idleSince = deps.clock.now() - TRANSFER_RESUME_WINDOW_SECONDS * 1000;
    const failed = await deps.upkeepStore.failAbandonedUploads(idleSince);
    if (failed > 0) deps.log.info("portal uploads abandoned", { failed });
  });
}
