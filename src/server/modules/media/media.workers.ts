import type { AppDeps } from "@/server/deps";
import { renderJob } from "./render.job";
import { RENDER_JOB, TRANSCODE_JOB } from "./render.service";

export function registerMediaWorkers(deps: AppDeps) {
  deps.jobs.register(RENDER_JOB, renderJob(deps));
  // A transcode takes minutes and every core: a pool of its own, so it never holds the shared slots.
  deps.jobs.register(TRANSCODE_JOB, renderJob(deps, deps.config.mediaTranscodes));
}
