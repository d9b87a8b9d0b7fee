import path from "node:path";
import { type Db, openDatabase } from "./db/database";
import type { Config } from "./env";
import { type Clock, systemClock } from "./lib/clock";
import { createLogger, type Logger } from "./lib/logger";
import { EventRecorder } from "./modules/events/events.repository";
import { JobRunner } from "./workers/job-runner";

/** What every handler and worker reaches the outside world through; tests build their own. */
export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  jobs: JobRunner;
  events: EventRecorder;
}

export function createDeps(config: Config, overrides: { clock?: Clock; log?: Logger } = {}): AppDeps {
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? createLogger(config.logLevel);
  const db = openDatabase(path.join(config.dataDir, "consign.db"));
  return {
    config,
    db,
    clock,
    log,
    jobs: new JobRunner(db, clock, log.child({ component: "jobs" })),
    events: new EventRecorder(db, clock),
  };
}
