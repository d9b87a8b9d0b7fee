import type { IncomingMessage, ServerResponse } from "node:http";
import { Server } from "@tus/server";
import { HEADERS, TUS_RESUMABLE, TUS_VERSION } from "@tus/utils";
import { NodeRequest, sendNodeResponse } from "srvx/node";
import { CONTENT_PASSWORD_HEADER } from "@/contract/rules";
import { peerAddress } from "@/server/http/client-address";
import { validationFailed } from "@/server/lib/api-error";
import { grantFor } from "@/server/modules/transfers/transfer-access";
import {
  readTransferToken,
  type TransferClaims,
  tokenVerifier,
} from "@/server/modules/transfers/transfer-token";
import { serveFile, serveZip } from "./downloads";
import { anyKeyCheck, uploadById } from "./node.repository";
import type { NodeDeps } from "./node-deps";
import { asNodeError, codeForStatus, envelope, NodeError } from "./node-errors";
import { unlockContent } from "./protection";
import { Traffic } from "./traffic";
import { UploadStore, uploadRequest } from "./upload-store";

/** tus 1.0.0: the one type a PATCH's body may have. */
const TUS_BODY_TYPE = "application/offset+octet-stream";

/** Where the node answers, in the service's process and standalone alike. */
export const NODE_BASE = "/node/v1";

/** Headers a browser engine must be allowed to send and read (CORS). */
const ALLOWED_HEADERS = [
  "Upload-Checksum",
  CONTENT_PASSWORD_HEADER,
  "Range",
  "If-Range",
  "Upload-Expires",
];
const EXPOSED_HEADERS = [
  "Upload-Expires",
  "Tus-Checksum-Algorithm",
  "Consign-File-Sha256",
  "Retry-After",
  "Accept-Ranges",
  "Content-Range",
  "Content-Disposition",
  "ETag",
];

export interface NodeRequestContext {
  deps: NodeDeps;
  traffic: Traffic;
  /**
   * The transfer token's claims, checked offline (signature, key, node, end): from
   * `Authorization: Bearer`, or `?token=` on a download link.
   */
  claims(req: IncomingMessage, url: URL, allowQuery: boolean): TransferClaims;
  /**
   * The content protection key for a salt, from `Consign-Content-Password`, if sent; checked
   * against `keyCheck` under the password slow-down (`unlockContent`).
   */
  keyFor(req: IncomingMessage, salt: string, keyCheck: string | null): Promise<Buffer | null>;
}

/**
 * The data node (docs/data-node.md): tus uploads at `/uploads`, one file with Range at
 * `/files`, a folder as a streamed ZIP at `/zip`. It takes raw Node requests (no Hono on this
 * path: the bytes go from the socket to the staging file through @tus/server and the store
 * only) and answers every refusal with the API's error envelope. `allowedOrigins`: the browser
 * origins that may call it from elsewhere (the service's own origin needs none in-process).
 */
export function createNodeHandler(deps: NodeDeps, allowedOrigins: string[] = []) {
  const traffic = new Traffic();
  // Uploads stage and commit into the files module's blob store, the one the tree's files name.
  const store = new UploadStore(deps, deps.files.blobs, traffic);
  const origins = new Set(allowedOrigins);
  // The upload id the node checked against the request's token, by request. tus reads no id of
  // its own: its pattern runs over the whole URL, query and fragment included, and would act on
  // an id the check never saw (`/uploads/<own>?x=/<other's>`).
  const checkedIds = new WeakMap<Request, string>();
  const tus = new Server({
    path: `${NODE_BASE}/uploads`,
    datastore: store,
    respectForwardedHeaders: deps.config.trustProxy,
    disableTerminationForFinishedUploads: true,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    allowedOrigins: (origin) => origins.has(origin),
    getFileIdFromRequest: (req) => checkedIds.get(req),
    onUploadFinish: async (_req, upload) => ({
      headers: { "Consign-File-Sha256": await store.finish(upload.id) },
    }),
    onResponseError: (_req, err) => {
      const refusal = asNodeError(err);
      if (refusal) return { status_code: refusal.status, body: refusal.body };
      if (!("status_code" in err)) deps.log.error("node upload failed", { err });
      return undefined;
    },
  });

  const verifier = tokenVerifier(deps.config);
  const ctx: NodeRequestContext = {
    deps,
    traffic,
    claims(req, url, allowQuery) {
      const auth = req.headers.authorization;
      const token = auth?.startsWith("Bearer ")
        ? auth.slice(7).trim()
        : allowQuery
          ? url.searchParams.get("token")
          : null;
      return readTransferToken(verifier, token, deps.clock.now());
    },
    async keyFor(req, salt, keyCheck) {
      const password = req.headers[CONTENT_PASSWORD_HEADER.toLowerCase()];
      if (typeof password !== "string" || !password) return null;
      const forwarded = req.headers["x-forwarded-for"];
      const address = peerAddress(
        typeof forwarded === "string" ? forwarded : undefined,
        req.socket.remoteAddress,
        deps.config.trustProxy,
      );
      return unlockContent(deps, { salt, keyCheck, password, address });
    },
  };

  async function uploads(req: IncomingMessage, res: ServerResponse, url: URL, id: string | null) {
    const method = req.method ?? "GET";
    const request = new NodeRequest({ req, res });
    if (method === "OPTIONS") {
      const answer = await tus.handleWeb(request);
      answer.headers.set("Tus-Checksum-Algorithm", "sha256");
      return sendNodeResponse(res, answer);
    }
    res.setHeader("Tus-Resumable", TUS_RESUMABLE);
    // tus: a HEAD's answer, a refusal included, must not be cached.
    if (method === "HEAD") res.setHeader("Cache-Control", "no-store");
    refuseUnspokenTus(req, res);
    const claims = ctx.claims(req, url, false);
    if (claims.direction !== "send")
      throw new NodeError(403, "forbidden", "A receive's token cannot upload", {
        reason: "wrong_direction",
      });
    const grant = grantFor(deps.db, claims, deps.clock.now());
    if (id) {
      const row = uploadById(deps.db, id);
      // Another transfer's upload is not this token's to see: 404, as if it did not exist.
      if (!row || row.transfer_id !== grant.transfer.id)
        throw new NodeError(404, "not_found", "No such upload in this transfer", { uploadId: id });
      // tus's own expiry check reads the wall clock; this one reads the service's clock.
      if (row.status === "uploading" && row.expires_at < deps.clock.now())
        throw new NodeError(410, "not_found", "This upload expired; start it again", {
          uploadId: id,
          reason: "expired",
        });
    }
    const checksum = req.headers["upload-checksum"];
    if (typeof checksum === "string" && !checksum.startsWith("sha256 "))
      throw validationFailed(
        "Upload-Checksum",
        "Upload-Checksum supports sha256 only",
        "unsupported",
        { issue: "use sha256" },
      );
    const carriesBytes = method === "POST" || method === "PATCH";
    if (carriesBytes) res.once("close", traffic.enter(grant.transfer));
    if (id) checkedIds.set(request, id);
    const key = grant.transfer.protection_salt
      ? await ctx.keyFor(
          req,
          grant.transfer.protection_salt,
          anyKeyCheck(deps.db, grant.transfer.id),
        )
      : null;
    const answer = await uploadRequest.run(
      { grant, key, checksum: typeof checksum === "string" ? checksum : null },
      () => tus.handleWeb(request),
    );
    await sendNodeResponse(res, await withEnvelope(answer));
  }

  async function route(req: IncomingMessage, res: ServerResponse, url: URL) {
    const origin = req.headers.origin;
    if (origin && origins.has(origin)) {
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Vary", "Origin");
      res.setHeader("Access-Control-Expose-Headers", [...HEADERS, ...EXPOSED_HEADERS].join(", "));
    }
    const sub = url.pathname.slice(NODE_BASE.length);
    if (sub === "/uploads" || sub.startsWith("/uploads/")) {
      // As sent: an id is hex, so one that needs decoding names no upload (404).
      const id = sub.slice("/uploads/".length) || null;
      return uploads(req, res, url, id);
    }
    if (req.method === "OPTIONS" && (sub === "/files" || sub === "/zip")) {
      res.writeHead(204, {
        "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
        "Access-Control-Allow-Headers": ["Authorization", ...ALLOWED_HEADERS].join(", "),
        "Access-Control-Max-Age": "600",
      });
      return res.end();
    }
    if (sub === "/files" && (req.method === "GET" || req.method === "HEAD"))
      return serveFile(ctx, req, res, url);
    if (sub === "/zip" && req.method === "GET") return serveZip(ctx, req, res, url);
    throw new NodeError(404, "not_found", `No route for ${req.method} ${url.pathname}`);
  }

  return function handleNodeRequest(req: IncomingMessage, res: ServerResponse) {
    const started = performance.now();
    const url = new URL(req.url ?? "/", "http://node");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.once("finish", () =>
      // The path only: a download link's query holds its token.
      deps.log.info("node request", {
        method: req.method,
        path: url.pathname,
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
      }),
    );
    route(req, res, url).catch((err) => refuse(deps, req, res, err));
  };
}

const unsupported = (status: number, field: string, message: string, code: string) =>
  new NodeError(status, "validation_failed", message, { issues: [{ field, message, code }] });

/**
 * What tus 1.0.0 asks of a request the node does not speak, refused before the request is
 * processed (and before @tus/server, which answers these with a bare 400 or a 501): another
 * protocol version (412 with `Tus-Version`), a PATCH body of another type (415), and the
 * extensions the node does not offer, creation-defer-length and concatenation (400).
 */
function refuseUnspokenTus(req: IncomingMessage, res: ServerResponse) {
  const version = req.headers["tus-resumable"];
  if (version !== TUS_RESUMABLE) {
    res.setHeader("Tus-Version", TUS_VERSION.join(","));
    throw unsupported(
      412,
      "Tus-Resumable",
      `This node speaks tus ${TUS_RESUMABLE}; send Tus-Resumable: ${TUS_RESUMABLE}`,
      version === undefined ? "required" : "unsupported_version",
    );
  }
  if (req.method === "PATCH" && req.headers["content-type"] !== TUS_BODY_TYPE)
    throw unsupported(
      415,
      "Content-Type",
      `A PATCH carries its bytes as ${TUS_BODY_TYPE}`,
      "unsupported_media_type",
    );
  const deferred =
    req.headers["upload-defer-length"] !== undefined ||
    (req.method === "PATCH" && req.headers["upload-length"] !== undefined);
  if (deferred)
    throw unsupported(
      400,
      req.headers["upload-defer-length"] !== undefined ? "Upload-Defer-Length" : "Upload-Length",
      "This node does not offer creation-defer-length: send Upload-Length when creating the upload",
      "unsupported",
    );
  if (req.headers["upload-concat"] !== undefined)
    throw unsupported(
      400,
      "Upload-Concat",
      "This node does not offer concatenation",
      "unsupported",
    );
}

/** tus's own refusals are plain text: they leave in the API's envelope like every other. */
async function withEnvelope(answer: Response): Promise<Response> {
  if (answer.status < 400) return answer;
  const text = await answer.text();
  const body = text.startsWith('{"error"')
    ? text
    : envelope(codeForStatus(answer.status), text.trim() || "The upload was refused");
  const headers = new Headers(answer.headers);
  // A refusal from inside tus (an upload another node holds) says when to retry, as refuse() does.
  const retry = (JSON.parse(body) as { error: { details?: { retryAfterSeconds?: unknown } } }).error
    .details?.retryAfterSeconds;
  if (typeof retry === "number") headers.set("Retry-After", String(retry));
  headers.set("Content-Type", "application/json");
  headers.set("Content-Length", String(Buffer.byteLength(body)));
  return new Response(body, { status: answer.status, headers });
}

function refuse(deps: NodeDeps, req: IncomingMessage, res: ServerResponse, err: unknown) {
  const refusal = asNodeError(err);
  if (!refusal) deps.log.error("node request failed", { method: req.method, err });
  if (res.headersSent) {
    // Mid-stream: the client sees a cut connection, not a well-formed end.
    res.destroy();
    return;
  }
  const status = refusal?.status ?? 500;
  const body = refusal
    ? refusal.body
    : envelope("internal_error", "Something went wrong on the data node");
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  const retry = refusal?.details?.retryAfterSeconds;
  if (typeof retry === "number") res.setHeader("Retry-After", String(retry));
  // A refused upload's body is not read: the connection cannot carry another request.
  if (req.method === "PATCH" || req.method === "POST") res.setHeader("Connection", "close");
  res.end(body);
}

/** Browser origins a node may answer: CORS_ORIGINS, and the service's own when it is elsewhere. */
export function nodeOrigins(config: NodeDeps["config"]) {
  const own = config.publicUrl ? [new URL(config.publicUrl).origin] : [];
  return [...new Set([...config.corsOrigins, ...own])];
}

/** A request listener that sends `/node/v1/…` to the node and everything else on to `next`. */
export function withNode(
  node: (req: IncomingMessage, res: ServerResponse) => void,
  next: (req: IncomingMessage, res: ServerResponse) => void,
) {
  return (req: IncomingMessage, res: ServerResponse) =>
    req.url?.startsWith(`${NODE_BASE}/`) ? node(req, res) : next(req, res);
}
