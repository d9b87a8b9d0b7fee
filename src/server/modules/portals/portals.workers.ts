import type { AppDeps } from "@/server/deps";
import { SPEC_CHECK_JOB, specCheckJob } from "./portal-spec";

export function registerPortalsWorkers(deps: AppDeps) {
  deps.jobs.register(SPEC_CHECK_JOB, specCheckJob(deps));
}
