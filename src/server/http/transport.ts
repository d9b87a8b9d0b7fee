import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { Context } from "hono";
import type { ErrorEnvelope } from "@/contract/common";
import { MAX_PATH_LENGTH } from "@/contract/rules";
import type { Logger } from "@/server/lib/logger";
import type { AppEnv } from "./types";

/**
 * The most bytes a request line and its headers may take. The largest the spec allows is
 * `GET W/files/search` with a 200-character `q` and a 4,096-character `path`, every character
 * percent-encoded at its widest: a character of U+0800 to U+FFFF is 3 UTF-8 bytes, so 9 bytes
 * (`%E4%B8%80`) per unit of length (an astral character takes 12 bytes but counts as 2 units).
 * (4,096 + 200) x 9 = 38,664 bytes, plus under 1 KB for the rest of the request line (a 64-character
 * workspace id, at most 576 bytes encoded), plus Node's default 16 KiB for the headers themselves:
 * about 55 KB, rounded up to 64 KiB. Node's default (16 KiB) refused such a path with an empty 431.
 */
export const MAX_HEADER_BYTES = 64 * 1024;

// Checked here so that a longer path bound cannot silently outgrow the limit above.
if ((MAX_PATH_LENGTH + 200) * 9 + 1024 + 16 * 1024 > MAX_HEADER_BYTES)
  throw new Error("MAX_HEADER_BYTES no longer fits the longest request the spec allows");

/**
 * Node's own answer to a request it cannot parse (too large a head, not HTTP, too slow) is an
 * empty 400, 408 or 431; this one carries the error envelope like every other refusal.
 */
export function answerClientError(log: Logger) {
  return (err: NodeJS.ErrnoException, socket: Duplex) => {
    // An answer already begun on this connection cannot be followed by another.
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === "ECONNRESET" || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, message, issue] =
      err.code === "HPE_HEADER_OVERFLOW"
        ? [431, `The request line and headers exceed ${MAX_HEADER_BYTES / 1024} KiB`, "too_large"]
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "The request did not arrive in time", "timeout"]
          : [400, "The request is not valid HTTP/1.1", "malformed"];
    const envelope: ErrorEnvelope = {
      error: {
        code: "validation_failed",
        message,
        details: { issues: [{ field: "headers", message, code: issue }] },
      },
    };
    const body = JSON.stringify(envelope);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        "Content-Type: application/json\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "X-Content-Type-Options: nosniff\r\n" +
        "Connection: close\r\n\r\n" +
        body,
    );
    log.info("request refused before it was read", { status, reason: err.code });
  };
}

/**
 * The status logged for a request whose client closed the connection before sending all of it
 * (nginx's "client closed request"). Nothing is sent: there is no one to send it to.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Whether the client went away before its request had fully arrived. Reading the rest of the
 * body then fails (or ends early and reads as malformed JSON); neither is a fault of ours nor
 * the client's input. False in-process, where there is no connection.
 */
export function clientClosedRequest(c: Context<AppEnv>) {
  const incoming = c.env?.incoming;
  return incoming !== undefined && !incoming.complete && incoming.socket.destroyed;
}
