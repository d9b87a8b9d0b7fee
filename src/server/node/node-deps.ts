import type { AppDeps } from "@/server/deps";

/** What the data node needs of the service's parts: the same in-process and standalone. */
export type NodeDeps = Pick<AppDeps, "config" | "db" | "clock" | "log" | "files">;
