import http from "node:http";
import https from "node:https";
import { RESPONSE_BODY_KEPT_BYTES } from "@/contract/webhooks";
import { guardedLookup, hostAddress, isPrivateAddress, PrivateAddressError } from "./address-guard";

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
  responseTruncated: boolean;
}

export interface PostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

// Keep-alive: at 200 events/s a fresh TCP (and TLS) handshake per attempt would dominate latency.
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

function describeError(err: unknown): string {
  if (err instanceof PrivateAddressError) return err.message;
  const e = err as NodeJS.ErrnoException;
  if (e?.code === "ENOTFOUND" || e?.code === "EAI_AGAIN") return `DNS lookup failed (${e.code})`;
  if (e?.code) return `${e.code}: ${e.message}`;
  return e instanceof Error ? e.message : String(err);
}

/**
 * One POST, never following redirects (node:http does not), with one deadline over connect,
 * headers and body. Only the first 4 KB of the response body is kept; the rest is drained so
 * the socket can be reused.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  // An address written in the URL is not looked up, so guardedLookup would not see it.
  const literal = hostAddress(target);
  if (!options.allowPrivate && literal !== null && isPrivateAddress(literal)) {
    return Promise.resolve({
      ok: false,
      statusCode: null,
      error: new PrivateAddressError(literal, literal).message,
      durationMs: elapsed(),
      responseBody: null,
      responseTruncated: false,
    });
  }
  const transport = target.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let statusCode: number | null = null;
    let location: string | undefined;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let truncated = false;

    const finish = (transportError: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const ok =
        transportError === null && statusCode !== null && statusCode >= 200 && statusCode < 300;
      let error = transportError;
      if (error === null && !ok) {
        error =
          statusCode !== null && statusCode >= 300 && statusCode < 400
            ? `Redirect not followed (HTTP ${statusCode}${location ? ` to ${location.slice(0, 200)}` : ""})`
            : `HTTP ${statusCode}`;
      }
      resolve({
        ok,
        statusCode,
        error,
        durationMs: elapsed(),
        responseBody: statusCode === null ? null : Buffer.concat(kept).toString("utf8"),
        responseTruncated: truncated,
      });
    };

    const req = transport.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        agent: agents[target.protocol as "http:" | "https:"],
        lookup: options.allowPrivate ? undefined : guardedLookup,
      },
      (res) => {
        statusCode = res.statusCode ?? null;
        location = res.headers.location;
        res.on("data", (chunk: Buffer) => {
          const room = RESPONSE_BODY_KEPT_BYTES - keptBytes;
          if (room <= 0) {
            truncated = true;
            return;
          }
          if (chunk.length > room) truncated = true;
          const part = chunk.subarray(0, room);
          kept.push(part);
          keptBytes += part.length;
        });
        res.on("end", () => finish(null));
        res.on("error", (err) => finish(statusCode === null ? describeError(err) : null));
      },
    );
    // After the status line arrived, a slow body does not change the outcome: the status decides.
    const timer = setTimeout(() => {
      finish(statusCode === null ? `Timed out after ${options.timeoutMs} ms` : null);
      req.destroy();
    }, options.timeoutMs);
    req.on("error", (err) => finish(describeError(err)));
    req.end(body);
  });
}
