import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "@/server/lib/logger";
import { startTempService } from "@/server/testing/temp-service";
import { gracefulCloser } from "./graceful-close";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    }),
  ]);
}

interface Answer {
  status: number;
  connection: string | undefined;
}

/** Sends the headers now and the body `bodyAfterMs` later, so the request is in flight meanwhile. */
function slowRequest(
  url: string,
  agent: http.Agent,
  key: string,
  body: string,
  bodyAfterMs: number,
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          Authorization: `Bearer ${key}`,
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode!, connection: res.headers.connection }),
        );
      },
    );
    req.on("error", reject);
    req.flushHeaders();
    setTimeout(() => req.end(body), bodyAfterMs);
  });
}

describe("shutdown", () => {
  it("answers the request in flight with Connection: close and ends promptly while a keep-alive client keeps polling", async () => {
    const { service, boot, dir } = await startTempService("consign-shutdown-");
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const key = boot.adminKey;
    // One connection, reused for every request, as a browser's console does.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(() => agent.destroy());

    const answeredAfterStop: number[] = [];
    let stopping = false;
    const poll = () =>
      http
        .get(`${service.url}/v1/auth/key`, { agent, headers: { Authorization: `Bearer ${key}` } })
        .on("response", (res) => {
          res.resume();
          if (stopping) answeredAfterStop.push(res.statusCode!);
        })
        .on("error", () => {});
    const poller = setInterval(poll, 100);
    cleanups.push(() => clearInterval(poller));
    await sleep(250);

    const inFlight = slowRequest(
      `${service.url}/v1/workspaces/${service.boot.workspace.id}/files/folder`,
      agent,
      key,
      JSON.stringify({ path: "made-while-stopping" }),
      300,
    );
    await sleep(100);
    stopping = true;
    const started = performance.now();
    await within(3_000, service.stop(), "stop");
    const took = performance.now() - started;

    expect(await inFlight).toEqual({ status: 201, connection: "close" });
    expect(took).toBeLessThan(2_000);
    // Polls queued behind the slow request found the service gone instead of being served.
    expect(answeredAfterStop).toEqual([]);
    expect(service.deps.db.open).toBe(false);
  });

  it("closes a keep-alive connection whose answer had begun before closing began", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.write("streamed ");
      setTimeout(() => res.end("answer"), 200);
    });
    const close = gracefulCloser(server, createLogger("silent"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(() => agent.destroy());
    const answer = new Promise<string | undefined>((resolve, reject) => {
      http
        .get({ port, agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.headers.connection));
        })
        .on("error", reject);
    });
    await sleep(50);

    await within(2_000, close(10_000), "close");
    // Its headers promised keep-alive; the connection is closed once the answer is complete.
    expect(await answer).toBe("keep-alive");
  });

  it("answers with Connection: close a request whose headers were still arriving", async () => {
    const server = http.createServer((_req, res) => res.end("ok"));
    const close = gracefulCloser(server, createLogger("silent"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const socket = net.connect(port, "127.0.0.1");
    cleanups.push(() => socket.destroy());
    let received = "";
    socket.on("data", (d) => {
      received += d;
    });
    await new Promise((r) => socket.once("connect", r));
    socket.write("GET / HTTP/1.1\r\nHost: test\r\n");
    await sleep(50);

    const closed = within(2_000, close(10_000), "close");
    const ended = new Promise((r) => socket.once("end", r));
    socket.write("\r\n");
    await Promise.all([closed, ended]);
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
  });

  it("cuts the connections still open at the deadline", async () => {
    const server = http.createServer((req, res) => {
      // Answers only once the whole body is in, which never happens here.
      req.resume();
      req.on("end", () => res.end("late"));
    });
    const close = gracefulCloser(server, createLogger("silent"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const outcome = new Promise<string>((resolve) => {
      const req = http.request({ port, method: "POST", headers: { "Content-Length": "10" } });
      req.on("response", () => resolve("answered"));
      req.on("error", (err) => resolve((err as NodeJS.ErrnoException).code ?? "error"));
      req.flushHeaders();
    });
    await sleep(50);

    const started = performance.now();
    await within(2_000, close(200), "close");
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(190);
    expect(await outcome).toBe("ECONNRESET");
  });
});
