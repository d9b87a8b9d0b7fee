import fs from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import { ZodError } from "zod";
import { SHARE_LINK_PREFIX } from "@/contract/rules";
import type { AppDeps } from "./deps";
import {
  authenticate,
  limitUnauthenticated,
  type RateLimits,
  requestContext,
  securityHeaders,
  workspaceGuard,
} from "./http/middleware";
import { RateLimiter } from "./http/rate-limit";
import { createRouter, invalidRequest } from "./http/router";
import { CLIENT_CLOSED_REQUEST, clientClosedRequest } from "./http/transport";
import { ApiError, isDiskFull, validationFailed } from "./lib/api-error";
import { authRouter } from "./modules/auth/auth.routes";
import { bulkRouter } from "./modules/bulk/bulk.routes";
import { eventsRouter } from "./modules/events/events.routes";
import { filesRouter } from "./modules/files/files.routes";
import { operationsRouter } from "./modules/operations/operations.routes";
import { portalsRouter } from "./modules/portals/portals.routes";
import { publicPortalsRouter } from "./modules/portals/public.routes";
import { renameRouter } from "./modules/rename/rename.routes";
import { publicSharesRouter } from "./modules/shares/public.routes";
import { sharesRouter } from "./modules/shares/shares.routes";
import { transfersRouter } from "./modules/transfers/transfers.routes";
import { webhooksRouter } from "./modules/webhooks/webhooks.routes";

const OPENAPI_PATH = "/v1/openapi.json";
const PUBLIC_PREFIX = "/v1/public/";

export function createApp(deps: AppDeps) {
  const { rateLimit, unauthenticatedRateLimit, trustProxy } = deps.config;
  const limits: RateLimits = {
    perKey: new RateLimiter(rateLimit.limit, rateLimit.windowMs),
    perAddress: new RateLimiter(unauthenticatedRateLimit, rateLimit.windowMs),
    trustProxy,
  };
  const app = createRouter();

  app.use("*", async (c, next) => {
    c.set("deps", deps);
    await next();
  });
  app.use("*", requestContext);
  // A data node elsewhere (NODE_URL) is where the console's uploads and downloads go.
  const nodeOrigin = deps.config.nodeUrl ? [new URL(deps.config.nodeUrl).origin] : [];
  app.use("*", securityHeaders([...deps.config.cspConnectSrc, ...nodeOrigin]));
  if (deps.config.corsOrigins.length > 0) {
    app.use(
      "/v1/*",
      cors({
        origin: deps.config.corsOrigins,
        allowHeaders: ["Authorization", "Content-Type"],
        exposeHeaders: [
          "Retry-After",
          "RateLimit-Limit",
          "RateLimit-Remaining",
          "RateLimit-Reset",
          "RateLimit-Policy",
          "X-Request-Id",
        ],
        maxAge: 600,
      }),
    );
  }

  const v1 = createRouter();
  const auth = authenticate(limits);
  v1.use("*", async (c, next) => {
    if (c.req.path !== OPENAPI_PATH && !c.req.path.startsWith(PUBLIC_PREFIX)) return auth(c, next);
    // Served without a key (the document, the recipient page's API), so counted like any
    // other request without one.
    limitUnauthenticated(c, limits);
    await next();
  });
  const limitBody = bodyLimit({
    maxSize: 1024 * 1024,
    onError: (c) => {
      // The rest of the body is never read, so the connection cannot carry another request:
      // say so, rather than answer keep-alive and drop it under the client's next request.
      c.header("Connection", "close");
      throw validationFailed("body", "The request body is larger than 1 MiB", "too_large");
    },
  });
  // A GET or HEAD has no body to limit, and merely asking for one turns the adapter's light
  // request into a full fetch Request (headers, an AbortController): a sixth of a listing's cost.
  v1.use("*", (c, next) =>
    c.req.method === "GET" || c.req.method === "HEAD" ? next() : limitBody(c, next),
  );
  v1.use("/workspaces/:workspaceId/*", workspaceGuard);
  v1.route("/", authRouter);
  v1.route("/", filesRouter);
  v1.route("/", operationsRouter);
  v1.route("/", renameRouter);
  v1.route("/", bulkRouter);
  v1.route("/", transfersRouter);
  v1.route("/", sharesRouter);
  v1.route("/", publicSharesRouter);
  v1.route("/", portalsRouter);
  v1.route("/", publicPortalsRouter);
  v1.route("/", webhooksRouter);
  v1.route("/", eventsRouter);

  v1.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "A workspace API key, `svc_sk_` followed by 40 base62 characters. Each operation lists in `security` (and `x-scopes`) the scopes that allow it; any one is enough.",
  });
  v1.openAPIRegistry.registerComponent("securitySchemes", "uploadToken", {
    type: "http",
    scheme: "bearer",
    description:
      "A portal upload's transfer token (`transferSpec.token` from startPortalUpload), for that upload's own requests.",
  });
  v1.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Workspace File Delivery Service (Consign reference service)",
      version: "1.0.0",
      // OpenAPI 3.1's `identifier` (an SPDX expression); the generator's types predate it.
      license: { name: "Proprietary", identifier: "LicenseRef-Consign-Proprietary" } as {
        name: string;
      },
      description:
        "Version 1 of the interface. Operations marked `x-consign-extension` are not in the interface specification; clients must not depend on them. Design decisions for parts the specification leaves open are listed in docs/api-decisions.md. Every string of a request must be well-formed Unicode (no lone surrogate), and `minLength`/`maxLength` count UTF-16 code units as the service does: a character outside the Basic Multilingual Plane (most emoji) counts as two.",
    },
    servers: [{ url: "/v1" }],
  });
  app.route("/v1", v1);

  serveConsole(app, deps);

  app.notFound((c) =>
    c.json(
      {
        error: {
          code: "not_found",
          message: `No route for ${c.req.method} ${c.req.path}`,
          details: null,
        },
      },
      404,
    ),
  );
  app.onError((thrown, c) => {
    // Whatever failed, it failed because the body stopped arriving; nobody awaits an answer.
    if (clientClosedRequest(c)) return c.body(null, CLIENT_CLOSED_REQUEST as StatusCode);
    // A request's values that a service re-validates (building another operation's body) failed
    // there: still the request's fault to the caller, logged since the route's own schema should
    // have refused it first.
    if (thrown instanceof ZodError)
      deps.log.warn("request refused by a service's schema", { path: c.req.path });
    const err = thrown instanceof ZodError ? serviceSchemaRefusal(thrown) : thrown;
    if (err instanceof ApiError) {
      // A refusal that says when to come back (the password slow-down) says it in HTTP too.
      const retry = err.details?.retryAfterSeconds;
      if (err.status === 429 && typeof retry === "number") c.header("Retry-After", String(retry));
      return c.json(
        { error: { code: err.code, message: err.message, details: err.details } },
        err.status,
      );
    }
    if (err instanceof HTTPException && err.status < 500) {
      // Hono raises these for malformed JSON and similar transport-level faults.
      const status = err.status as ContentfulStatusCode;
      const message = err.message || "The request could not be read";
      return c.json(
        {
          error: {
            code: "validation_failed",
            message,
            details: { issues: [{ field: "body", message, code: "malformed" }] },
          },
        },
        status === 400 ? 400 : status,
      );
    }
    const requestId = c.get("requestId");
    if (isDiskFull(err)) {
      // A transaction that met a full disk rolled back whole: the caller may simply retry.
      deps.log.error("disk full: a write was refused", { requestId, path: c.req.path, err });
      return c.json(
        {
          error: {
            code: "insufficient_storage",
            message:
              "The service's disk is full: nothing of this request was written. Try again once there is room.",
            details: { reason: "disk_full" },
          },
        },
        507,
      );
    }
    deps.log.error("unhandled error", { requestId, path: c.req.path, err });
    return c.json(
      {
        error: {
          code: "internal_error",
          message: `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
          details: { requestId },
        },
      },
      500,
    );
  });
  return app;
}

/** The built console, when there is one: hashed assets cached for good, every other path gets the SPA. */
function serveConsole(app: ReturnType<typeof createRouter>, deps: AppDeps) {
  const root = deps.config.staticDir;
  const indexFile = path.join(root, "index.html");
  if (!fs.existsSync(indexFile)) return;
  const relativeRoot = path.relative(process.cwd(), root) || ".";
  app.use("/assets/*", async (c, next) => {
    await next();
    if (c.res.status === 200) c.header("Cache-Control", "public, max-age=31536000, immutable");
  });
  // Source maps would hand anyone the console's original source; a build that made them
  // anyway (vite build --sourcemap) still does not serve them.
  app.use("*", async (c, next) =>
    c.req.path.startsWith("/v1/") || c.req.path.endsWith(".map")
      ? next()
      : serveStatic({ root: relativeRoot })(c, next),
  );
  // The recipient page: its own light entry (share.html), never the console.
  const shareFile = path.join(root, "share.html");
  app.get(`${SHARE_LINK_PREFIX}*`, async (c) => {
    c.header("Cache-Control", "no-cache");
    return c.html(await fs.promises.readFile(shareFile, "utf8"));
  });
  // The portal page (`/p/{slug}`, PORTAL_LINK_PREFIX): a light entry of its own too (portal.html).
  const portalFile = path.join(root, "portal.html");
  app.get("/p/*", async (c) => {
    c.header("Cache-Control", "no-cache");
    return c.html(await fs.promises.readFile(portalFile, "utf8"));
  });
  app.get("*", async (c, next) => {
    if (c.req.path.startsWith("/v1/") || c.req.path.startsWith("/assets/")) return next();
    c.header("Cache-Control", "no-cache");
    return c.html(await fs.promises.readFile(indexFile, "utf8"));
  });
}

/** A service schema's refusal, worded as the router words a route schema's. */
const serviceSchemaRefusal = (err: ZodError) =>
  invalidRequest(
    err.issues.map((i) => ({
      field: i.path.map(String).join(".") || "body",
      message: i.message,
      code: i.code,
    })),
  );
