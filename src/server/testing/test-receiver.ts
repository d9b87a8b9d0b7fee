import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Reply = {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  hang?: boolean;
};

/** A real HTTP receiver on 127.0.0.1 for the webhook tests; `reply` decides each answer. */
export async function startReceiver(
  reply: (req: ReceivedRequest) => Reply = () => ({ status: 200 }),
) {
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const received: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: performance.now(),
      };
      requests.push(received);
      const r = reply(received);
      if (r.hang) {
        hanging.add(res);
        return;
      }
      res.writeHead(r.status, r.headers);
      res.end(r.body ?? "");
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * How a receiver verifies, written independently of the service's signing code: raw bytes
 * first, a 5-minute tolerance on t, a constant-time comparison.
 */
export function receiverVerifies(
  header: string | undefined,
  rawBody: string,
  secret: string,
  nowSeconds: number,
) {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=") as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) return false;
  if (Math.abs(nowSeconds - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`, "utf8").digest();
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
