import type { Server, ServerResponse } from "node:http";
import type { Logger } from "@/server/lib/logger";

/**
 * Prepares a server to close promptly. `server.close()` alone closes only the connections idle
 * at that moment: a keep-alive client that is waiting for an answer (the console polls every
 * few seconds) gets it with `Connection: keep-alive` and goes on sending requests over that
 * connection, so the server never finishes closing. Must be called before the server takes
 * requests, since it has to know which responses are in flight.
 */
export function gracefulCloser(server: Server, log: Logger) {
  const inFlight = new Set<ServerResponse>();
  let closing = false;

  // An answer finished with keep-alive (its headers were already sent when closing began)
  // leaves an idle connection behind; `Connection: close` makes Node end the others itself.
  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());
  const lastAnswer = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader("Connection", "close");
    res.once("finish", closeIdleSoon);
  };

  // Ahead of the app's listener, so that the header is set before any answer begins.
  server.prependListener("request", (_req, res: ServerResponse) => {
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
    if (closing) lastAnswer(res);
  });

  /** Stops accepting, answers what is in flight, and cuts what is left after `graceMs`. */
  return (graceMs: number) =>
    new Promise<void>((resolve) => {
      closing = true;
      const deadline = setTimeout(() => {
        log.warn("requests still open at the shutdown deadline; closing their connections", {
          inFlight: inFlight.size,
        });
        server.closeAllConnections();
      }, graceMs);
      // Node closes the connections idle at this moment as part of close().
      server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      for (const res of inFlight) lastAnswer(res);
    });
}
