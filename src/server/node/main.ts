import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createDeps } from "@/server/deps";
import { loadConfig } from "@/server/env";
import { gracefulCloser } from "@/server/http/graceful-close";
import { answerClientError, MAX_HEADER_BYTES } from "@/server/http/transport";
import { tokenVerifier } from "@/server/modules/transfers/transfer-token";
import { createNodeHandler, NODE_BASE, nodeOrigins, withNode } from "./node.app";
import { envelope } from "./node-errors";

/**
 * `npm run node`: a data node in its own process, on NODE_PORT, beside a service on the same
 * DATA_DIR (the same SQLite database, in WAL mode, and the same blob store). It runs no jobs:
 * the service's cleanup job sweeps its abandoned uploads too.
 */
const config = loadConfig();
const deps = createDeps(config);
const node = createNodeHandler(deps, nodeOrigins(config));
const server = createServer(
  { maxHeaderSize: MAX_HEADER_BYTES },
  withNode(node, (_req, res) => {
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(envelope("not_found", `The data node answers under ${NODE_BASE}`));
  }),
);
server.on("clientError", answerClientError(deps.log));
const closeHttp = gracefulCloser(server, deps.log);
server.listen(config.nodePort, config.host, () => {
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  process.stdout.write(`Consign data node at http://${host}:${port}${NODE_BASE}\n`);
  const { keys, node: name } = tokenVerifier(config);
  deps.log.info("data node started", {
    port,
    dataDir: config.dataDir,
    node: name,
    tokenKeyIds: [...keys.keys()],
  });
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    closeHttp(10_000).then(
      () => {
        deps.db.close();
        process.exit(0);
      },
      () => process.exit(1),
    );
  });
}
