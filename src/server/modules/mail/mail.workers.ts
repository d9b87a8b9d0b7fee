import type { AppDeps } from "@/server/deps";
import { type AfterSent, MAIL_JOB, mailJob } from "./mailer";

export function registerMailWorkers(deps: AppDeps, afterSent: AfterSent) {
  deps.jobs.register(MAIL_JOB, mailJob(deps, afterSent));
}
