import type { ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import { ZodError } from "zod";
import { ApiError, isDiskFull } from "@/server/lib/api-error";
import type { Logger } from "@/server/lib/logger";
import { invalidRequest } from "./router";
import { CLIENT_CLOSED_REQUEST, clientClosedRequest } from "./transport";
import type { AppEnv } from "./types";

export const notFoundHandler: NotFoundHandler<AppEnv> = (c) =>
  c.json(
    {
      error: {
        code: "not_found",
        message: `No route for ${c.req.method} ${c.req.path}`,
        details: null,
      },
    },
    404,
  );

/** Every error, of whatever kind, leaves in the spec's envelope with its status. */
export function errorHandler(log: Logger): ErrorHandler<AppEnv> {
  return (thrown, c) => {
    // Whatever failed, it failed because the body stopped arriving; nobody awaits an answer.
    if (clientClosedRequest(c)) return c.body(null, CLIENT_CLOSED_REQUEST as StatusCode);
    // A request's values that a service re-validates (building another operation's body) failed
    // there: still the request's fault to the caller, logged since the route's own schema should
    // have refused it first.
    if (thrown instanceof ZodError)
      log.warn("request refused by a service's schema", { path: c.req.path });
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
      log.error("disk full: a write was refused", { requestId, path: c.req.path, err });
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
    log.error("unhandled error", { requestId, path: c.req.path, err });
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
  };
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
