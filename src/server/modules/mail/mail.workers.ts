import type { AppDeps } from "@/server/deps";
import { MAIL_JOB, mailJob } from "./mailer";

export function registerMailWorkers(deps: AppDeps) {
  deps.jobs.register(MAIL_JOB, mailJob(deps));
}
