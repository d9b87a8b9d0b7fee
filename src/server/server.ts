import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { createApp } from "./app";
import type { BootstrapResult } from "./bootstrap";
import type { Db } from "./db/database";
import { migratePg } from "./db/pg/migrate";
import { type AppDeps, createDeps } from "./deps";
import type { Config } from "./env";
import { gracefulCloser } from "./http/graceful-close";
import { answerClientError, MAX_HEADER_BYTES } from "./http/transport";
import type { Clock } from "./lib/clock";
import type { Logger } from "./lib/logger";
import { createNodeHandler, nodeOrigins, withNode } from "./node/node.app";
import { registerWorkers } from "./workers";

/** How long a shutdown waits for requests and jobs in flight before cutting them off. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningService {
  deps: AppDeps;
  boot: BootstrapResult;
  url: string;
  stop(): Promise<void>;
}

/** Opens the data dir, bootstraps, starts the workers and listens; used by main and by tests. */
export async function startService(
  config: Config,
  overrides: { clock?: Clock; log?: Logger; db?: Db; workers?: boolean } = {},
): Promise<RunningService> {
  const deps = createDeps(config, overrides);
  if (deps.pg) await migratePg(deps.pg);
  // One workspace however many processes (and CLIs) start on a fresh database at once.
  const boot = await deps.directory.bootstrap({ keepKey: true });
  const { roles } = config;
  const stopWorkers = await registerWorkers(deps, boot, { start: roles.has("workers") });
  if (roles.has("workers") && overrides.workers !== false) deps.jobs.start();
  const rest = roles.has("api")
    ? getRequestListener(createApp(deps).fetch, { hostname: config.host })
    : answerNotServed;
  // The data node answers `/node/v1` in this process ahead of Hono, on the raw request, so
  // upload and download bytes skip the fetch Request/Response conversion (docs/data-node.md).
  const server: Server = createServer(
    { maxHeaderSize: MAX_HEADER_BYTES },
    roles.has("node") ? withNode(createNodeHandler(deps, nodeOrigins(config)), rest) : rest,
  );
  server.on("clientError", answerClientError(deps.log));
  const closeHttp = gracefulCloser(server, deps.log);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url =
    config.publicUrl ??
    `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      // Requests and jobs in flight wind down side by side against one deadline, so a
      // shutdown takes at most about that long; the database closes once both are done.
      await Promise.all([
        closeHttp(SHUTDOWN_GRACE_MS),
        stopWorkers(),
        deps.jobs.stop(SHUTDOWN_GRACE_MS),
      ]);
      deps.db.close();
      await deps.pg?.end();
    })();
    return stopping;
  };
  return { deps, boot, url, stop };
}

/** What a process without the API role answers beside its data node: not here, in the envelope. */
function answerNotServed(req: IncomingMessage, res: ServerResponse) {
  res.writeHead(404, { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff" });
  res.end(
    JSON.stringify({
      error: {
        code: "not_found",
        message: `This process does not serve the API (ROLES): ${req.method} ${req.url?.split("?")[0]}`,
        details: null,
      },
    }),
  );
}
