import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PATH_LENGTH } from "@/contract/rules";
import { createLogger } from "@/server/lib/logger";
import { startTempService } from "@/server/testing/temp-service";

type LogLine = { level: string; msg: string; status?: number; [k: string]: unknown };

let service: Awaited<ReturnType<typeof startTempService>>["service"];
let dir: string;
let key: string;
let w: string;
const logged: LogLine[] = [];
beforeAll(async () => {
  const started = await startTempService("consign-transport-", {
    log: createLogger("debug", {}, (line) => logged.push(JSON.parse(line))),
  });
  ({ service, dir } = started);
  key = started.boot.adminKey;
  w = `/v1/workspaces/${started.boot.workspace.id}`;
});
afterAll(async () => {
  await service.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends raw bytes over one connection and reads until the service closes it. */
function rawExchange(send: (socket: net.Socket) => void) {
  const { port } = new URL(service.url);
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let received = "";
    socket.on("data", (d) => {
      received += d;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.on("connect", () => send(socket));
  });
}

function parseAnswer(raw: string) {
  const [head = "", body = ""] = raw.split("\r\n\r\n");
  return {
    status: Number(head.split(" ")[1]),
    contentType: /\r\ncontent-type: ([^\r]*)/i.exec(head)?.[1],
    json: JSON.parse(body),
  };
}

describe("request size", () => {
  // U+4E00 is three UTF-8 bytes, nine characters percent-encoded: the costliest character per
  // unit of length (an astral character is twelve, but counts two towards the length).
  const widest = (n: number) => "\u4e00".repeat(n);
  /** A path of `length` characters in names of 255, the longest a name may be. */
  const widestPath = (length: number) =>
    Array.from({ length: Math.ceil(length / 256) }, () => widest(255))
      .join("/")
      .slice(0, length);

  it("serves the longest path the spec allows as a query parameter", async () => {
    const headers = { Authorization: `Bearer ${key}` };
    const q = encodeURIComponent(widest(200));
    const path = encodeURIComponent(widestPath(MAX_PATH_LENGTH));
    for (const url of [`${w}/files?path=${path}`, `${w}/files/search?q=${q}&path=${path}`]) {
      expect(url.length).toBeGreaterThan(36_000);
      const res = await fetch(`${service.url}${url}`, { headers });
      // Read, validated and answered by the app: the path does not exist.
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
  });

  it("answers a request head beyond the bound with 431 in the envelope, not an empty answer", async () => {
    const answer = parseAnswer(
      await rawExchange((s) =>
        s.write(`GET ${w}/files HTTP/1.1\r\nHost: x\r\nX-Padding: ${"a".repeat(70_000)}\r\n\r\n`),
      ),
    );
    expect(answer.status).toBe(431);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.json.error).toMatchObject({
      code: "validation_failed",
      details: { issues: [{ field: "headers", code: "too_large" }] },
    });
  });

  it("answers a request that is not HTTP with 400 in the envelope", async () => {
    const answer = parseAnswer(await rawExchange((s) => s.write("HELLO THERE\r\n\r\n")));
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({
      code: "validation_failed",
      details: { issues: [{ code: "malformed" }] },
    });
  });
});

describe("a client that goes away", () => {
  const body = JSON.stringify({ path: `half/${"x".repeat(200)}` });
  const head = () =>
    `POST ${w}/files/folder HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
    "Content-Type: application/json\r\n";

  it.each([
    ["with a Content-Length", () => `${head()}Content-Length: ${body.length}\r\n\r\n`, body],
    [
      "chunked",
      () => `${head()}Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n`,
      body,
    ],
  ])(
    "logs a body cut off mid-way (%s) as an aborted request, not as a 500",
    async (_, start, full) => {
      const seen = logged.length;
      await rawExchange((s) => {
        s.write(start() + full.slice(0, full.length / 2), () => setTimeout(() => s.destroy(), 50));
      });
      let lines: LogLine[] = [];
      for (let i = 0; i < 50 && !lines.some((l) => l.method === "POST"); i++) {
        await sleep(20);
        lines = logged.slice(seen);
      }
      expect(lines.filter((l) => l.level === "error")).toEqual([]);
      expect(lines.find((l) => l.method === "POST")).toMatchObject({
        level: "info",
        msg: "request aborted by the client",
        status: 499,
      });
    },
  );
});

describe("a body over 1 MiB on a keep-alive connection", () => {
  /**
   * Sends a 2 MiB body with `Connection: keep-alive`, reads the refusal, then asks again on the
   * same socket. Resolves with both answers as received (the second empty if the socket closed).
   */
  function refusedThenAgain() {
    const { port } = new URL(service.url);
    const body = "x".repeat(2 * 1024 * 1024);
    return new Promise<{ first: string; second: string }>((resolve) => {
      const socket = net.connect(Number(port), "127.0.0.1");
      let received = "";
      let first: string | null = null;
      const done = () => resolve({ first: first ?? received, second: first ? received : "" });
      socket.on("data", (d) => {
        received += d;
        const end = received.indexOf("\r\n\r\n");
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(received)?.[1]);
        if (first === null && end > 0 && received.length >= end + 4 + length) {
          first = received.slice(0, end + 4 + length);
          received = "";
          // The refusal arrived: the same connection carries the next request, if it is open.
          if (!socket.destroyed)
            socket.write(`GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        }
      });
      // A reset while our body was still being written is the refusal's doing: judged below.
      socket.on("error", () => {});
      socket.on("close", done);
      socket.on("connect", () =>
        socket.write(
          `POST ${w}/files/folder HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
            `Content-Type: application/json\r\nConnection: keep-alive\r\n` +
            `Content-Length: ${body.length}\r\n\r\n${body}`,
        ),
      );
    });
  }

  it("is refused in the envelope, and the refusal either closes the connection or the next request is served", async () => {
    const { first, second } = await refusedThenAgain();
    const answer = parseAnswer(first);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({
      code: "validation_failed",
      details: { issues: [{ field: "body", code: "too_large" }] },
    });
    const closes = /\r\nconnection: close\r\n/i.test(first);
    if (!closes) expect(second).toMatch(/^HTTP\/1\.1 200 /);
  });
});
