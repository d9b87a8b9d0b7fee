import type { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type { AppDeps } from "@/server/deps";
import { validationFailed } from "@/server/lib/api-error";
import {
  authenticate,
  limitUnauthenticated,
  type RateLimits,
  requestContext,
  securityHeaders,
  workspaceGuard,
} from "./middleware";
import { OPENAPI_PATH } from "./openapi-document";
import { RateLimiter } from "./rate-limit";
import { PgRateLimiter } from "./rate-limit.pg";
import type { AppEnv } from "./types";

export const API_PREFIX = "/v1";
const PUBLIC_PREFIX = `${API_PREFIX}/public/`;

/** What every request meets, the console's included: deps, request id and log, headers, CORS. */
export function applyAppPipeline(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
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
      `${API_PREFIX}/*`,
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
}

/** What every API request meets before its route: the key and rate limit, the body limit, the workspace guard. */
export function applyApiPipeline(v1: OpenAPIHono<AppEnv>, deps: AppDeps) {
  const { rateLimit, unauthenticatedRateLimit, trustProxy } = deps.config;
  const { pg } = deps;
  // One process counts in memory; several share their windows through PostgreSQL.
  const limits: RateLimits = {
    perKey: pg
      ? new PgRateLimiter(pg, "key", rateLimit.limit, rateLimit.windowMs)
      : new RateLimiter(rateLimit.limit, rateLimit.windowMs),
    perAddress: pg
      ? new PgRateLimiter(pg, "address", unauthenticatedRateLimit, rateLimit.windowMs)
      : new RateLimiter(unauthenticatedRateLimit, rateLimit.windowMs),
    trustProxy,
  };
  const auth = authenticate(limits);
  v1.use("*", async (c, next) => {
    const { path } = c.req;
    if (path !== `${API_PREFIX}${OPENAPI_PATH}` && !path.startsWith(PUBLIC_PREFIX))
      return auth(c, next);
    // Served without a key (the document, the recipient page's API), so counted like any
    // other request without one.
    await limitUnauthenticated(c, limits);
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
}
