import type { AppDeps } from "@/server/deps";

/**
 * What the data node needs of the service's parts: the same in-process and standalone. `jobs`
 * only enqueues (a landed video's renders): a standalone node writes the rows, and the service's
 * runner, on the same database, runs them.
 */
export type NodeDeps = Pick<
  AppDeps,
  "config" | "db" | "clock" | "log" | "files" | "jobs" | "accessStore"
>;
