import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import { type BootstrapResult, bootstrap } from "./bootstrap";
import { type AppDeps, createDeps } from "./deps";
import type { Config } from "./env";
import type { Clock } from "./lib/clock";
import type { Logger } from "./lib/logger";
import { registerWorkers } from "./workers";

export interface RunningService {
  deps: AppDeps;
  boot: BootstrapResult;
  url: string;
  stop(): Promise<void>;
}

/** Opens the data dir, bootstraps, starts the workers and listens; used by main and by tests. */
export async function startService(
  config: Config,
  overrides: { clock?: Clock; log?: Logger; workers?: boolean } = {},
): Promise<RunningService> {
  const deps = createDeps(config, overrides);
  const boot = bootstrap(deps);
  const stopWorkers = await registerWorkers(deps, boot);
  if (overrides.workers !== false) deps.jobs.start();
  const app = createApp(deps);
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(s as Server),
    );
  });
  const { port } = server.address() as AddressInfo;
  const url =
    config.publicUrl ??
    `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      // Stop accepting, let requests in flight finish, then release leases and close the database.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await stopWorkers();
      await deps.jobs.stop();
      deps.db.close();
    })();
    return stopping;
  };
  return { deps, boot, url, stop };
}
