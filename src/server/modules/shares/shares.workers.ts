import type { AppDeps } from "@/server/deps";
import type { JobKind } from "@/server/workers/job-runner";
import { EXPIRE_ATTEMPTS, EXPIRE_JOB } from "./lifecycle.service";

/**
 * A share's expiry is a job queued for its time when the share is made (and again for each new
 * expiry). It records `share.expired` only if the share still expires then and it was not
 * recorded yet, in one conditional update, so a run repeated after a crash, a restart or an
 * extension records nothing twice.
 */
const expireJob = (deps: AppDeps): JobKind => ({
  maxAttempts: EXPIRE_ATTEMPTS,
  backoffMs: () => 30_000,
  run: async (payload) => {
    const { shareId, expiresAt } = payload as { shareId: string; expiresAt: number };
    await deps.upkeepStore.expireShare(shareId, expiresAt);
  },
});

export function registerSharesWorkers(deps: AppDeps) {
  deps.jobs.register(EXPIRE_JOB, expireJob(deps));
}
