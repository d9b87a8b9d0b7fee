import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { API_KEY_PREFIX, apiKeyPattern } from "@/contract/auth";
import type { Scope } from "@/contract/common";
import { ApiError } from "@/server/lib/api-error";
import { newId } from "@/server/lib/ids";
import { clientAddress } from "./client-address";
import type { RateLimitStore, RateVerdict } from "./rate-limit";
import { CLIENT_CLOSED_REQUEST } from "./transport";
import type { AppEnv } from "./types";

export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const requestId = newId();
  c.set("requestId", requestId);
  c.header("X-Request-Id", requestId);
  const started = performance.now();
  await next();
  const { log } = c.get("deps");
  const aborted = c.res.status === CLIENT_CLOSED_REQUEST;
  // The path only: no query string, no headers. A path can still hold a credential (a share's
  // token, a node upload's id): the logger masks those (lib/logger.ts).
  log.info(aborted ? "request aborted by the client" : "request", {
    requestId,
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    ms: Math.round((performance.now() - started) * 10) / 10,
    keyId: c.get("auth")?.keyId,
  });
});

export function securityHeaders(connectSrc: string[]) {
  const csp = [
    "default-src 'self'",
    // The upload engine hashes files with hash-wasm (streamed SHA-256): 'wasm-unsafe-eval' lets
    // WebAssembly compile and nothing more (eval stays refused).
    "script-src 'self' 'wasm-unsafe-eval'",
    // Radix's scroll lock injects a <style> element and React sets style attributes; scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self'",
    `connect-src 'self'${connectSrc.length ? ` ${connectSrc.join(" ")}` : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    c.header("Content-Security-Policy", csp);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("X-Frame-Options", "DENY");
    c.header("Cross-Origin-Opener-Policy", "same-origin");
    c.header("Cross-Origin-Resource-Policy", "same-origin");
  });
}

function unauthenticated(reason: string, message: string) {
  return new ApiError(401, "unauthenticated", message, { reason });
}

export interface RateLimits {
  perKey: RateLimitStore;
  /** Requests without a valid key, per client address. */
  perAddress: RateLimitStore;
  trustProxy: boolean;
}

/**
 * Counts a request without a valid key against its client address: 429 once the address has
 * used its allowance, with the same headers as the per-key limit. A valid key is never held to
 * its address's allowance, so one misbehaving client behind a shared address locks out no key.
 */
export async function limitUnauthenticated(c: Context<AppEnv>, limits: RateLimits) {
  const { clock } = c.get("deps");
  const verdict = await limits.perAddress.take(clientAddress(c, limits.trustProxy), clock.now());
  enforce(c, verdict, "per client address without a valid key");
}

/** Bearer-key authentication, then the per-key rate limit (spec Authentication 1-7, Errors 1). */
export function authenticate(limits: RateLimits) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const refuse = async (reason: string, message: string) => {
      await limitUnauthenticated(c, limits);
      return unauthenticated(reason, message);
    };
    const header = c.req.header("Authorization");
    if (!header)
      throw await refuse("missing", "Send the API key as `Authorization: Bearer svc_sk_...`");
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const key = match?.[1];
    if (!key?.startsWith(API_KEY_PREFIX) || !apiKeyPattern.test(key)) {
      throw await refuse("malformed", "The Authorization header must be `Bearer svc_sk_...`");
    }
    const { accessStore, clock } = c.get("deps");
    const result = await accessStore.authenticate(key, clock.now());
    if (!result.ok) {
      const messages = {
        unknown: "This API key is not known",
        revoked: "This API key has been revoked",
        expired: "This API key has expired",
        creator_removed: "This API key stopped working when its creator left the workspace",
      } as const;
      throw await refuse(result.reason, messages[result.reason]);
    }
    c.set("auth", {
      keyId: result.key.id,
      workspaceId: result.key.workspaceId,
      memberId: result.key.memberId,
      scopes: result.key.scopes as Scope[],
    });
    enforce(c, await limits.perKey.take(result.key.id, clock.now()), "per key");
    await next();
  });
}

/** Sends the rate-limit headers, and refuses with 429 `rate_limited` when the verdict does. */
function enforce(c: Context<AppEnv>, v: RateVerdict, per: string) {
  c.header("RateLimit-Limit", String(v.limit));
  c.header("RateLimit-Remaining", String(v.remaining));
  c.header("RateLimit-Reset", String(v.resetSeconds));
  c.header("RateLimit-Policy", `${v.limit};w=${v.windowSeconds}`);
  if (v.allowed) return;
  c.header("Retry-After", String(v.retryAfterSeconds));
  throw new ApiError(
    429,
    "rate_limited",
    `Too many requests: ${v.limit} per ${v.windowSeconds} s ${per}. Retry after ${v.retryAfterSeconds} s.`,
    {
      retryAfterSeconds: v.retryAfterSeconds,
      limit: v.limit,
      windowSeconds: v.windowSeconds,
    },
  );
}

/** A key is bound to one workspace: any other id is 403, whether or not it exists. */
export const workspaceGuard = createMiddleware<AppEnv>(async (c, next) => {
  const requested = c.req.param("workspaceId");
  if (requested !== c.get("auth").workspaceId) {
    throw new ApiError(403, "forbidden", "This key belongs to another workspace", {
      reason: "workspace_mismatch",
    });
  }
  await next();
});
