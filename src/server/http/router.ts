import { createRoute, OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { errorEnvelopeSchema, PATH_REJECTED, type Scope } from "@/contract/common";
import { isWellFormedText } from "@/contract/rules";
import { ApiError, type Issue, validationFailed } from "@/server/lib/api-error";
import type { AppEnv } from "./types";

/**
 * Every router validates with the contract and answers failures in the spec's envelope:
 * `path_rejected` when a path check failed, `validation_failed` otherwise, each issue named.
 * Every string that passed is then held to well-formed Unicode, whatever its schema says.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      const where = (path: readonly PropertyKey[]) => {
        const inner = path.map(String).join(".");
        const field =
          result.target === "json" ? inner : `${result.target}${inner ? `.${inner}` : ""}`;
        return field || "body";
      };
      const undecodable = result.target === "query" ? undecodableQueryValues(c.req.url) : [];
      if (undecodable.length > 0)
        throw invalidUnicode(
          undecodable.map((name) => ({
            field: `query.${name}`,
            message: "is not percent-encoded UTF-8",
          })),
        );
      if (result.success) {
        const illFormed = illFormedStrings(result.data).map((path) => ({
          field: where(path),
          message: "must be well-formed Unicode (it holds a lone surrogate)",
        }));
        if (illFormed.length > 0) throw invalidUnicode(illFormed);
        return;
      }
      const issues = result.error.issues.map((issue) => {
        const code =
          issue.code === "custom" &&
          (issue as { params?: { code?: string } }).params?.code === PATH_REJECTED
            ? PATH_REJECTED
            : issue.code;
        return { field: where(issue.path), message: issue.message, code };
      });
      const rejected = issues.find((i) => i.code === PATH_REJECTED);
      if (rejected)
        throw new ApiError(400, "path_rejected", `${rejected.field}: ${rejected.message}`, {
          issues,
        });
      throw invalidRequest(issues);
    },
  });
}

function invalidUnicode(found: { field: string; message: string }[]) {
  return invalidRequest(found.map((f) => ({ ...f, code: "invalid_unicode" })));
}

/** A request a schema refused: every issue named in the message as `field: message`. */
export function invalidRequest(issues: Issue[]) {
  const summary = issues.map((i) => `${i.field}: ${i.message}`).join("; ");
  return validationFailed(issues, `Invalid request: ${summary}`);
}

/**
 * The names of query parameters whose value is not percent-encoded UTF-8 (`%zz`, or `%ED%A0%80`,
 * a lone surrogate). Hono keeps such a value as its raw text, which would then be read as a
 * literal name; refusing it keeps one spelling per value.
 */
function undecodableQueryValues(url: string): string[] {
  const start = url.indexOf("?");
  if (start < 0 || !url.includes("%", start)) return [];
  const names: string[] = [];
  for (const pair of url.slice(start + 1).split("&")) {
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    try {
      decodeURIComponent(pair.replaceAll("+", " "));
    } catch {
      let decodedName = name;
      try {
        decodedName = decodeURIComponent(name);
      } catch {}
      names.push(decodedName);
    }
  }
  return names;
}

/** Where in a validated value a string (or an object key) is not well-formed Unicode. */
function illFormedStrings(value: unknown, path: PropertyKey[] = [], found: PropertyKey[][] = []) {
  if (typeof value === "string") {
    if (!isWellFormedText(value)) found.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      illFormedStrings(item, [...path, i], found);
    });
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!isWellFormedText(key)) found.push([...path, key]);
      illFormedStrings(item, [...path, key], found);
    }
  }
  return found;
}

const errorContent = { "application/json": { schema: errorEnvelopeSchema } };
const errorResponses = {
  400: { description: "`validation_failed` or `path_rejected`", content: errorContent },
  401: {
    description: "`unauthenticated`: missing, malformed, unknown, expired or revoked key",
    content: errorContent,
  },
  403: {
    description: "`forbidden`: the key lacks every listed scope, or names another workspace",
    content: errorContent,
  },
  404: { description: "`not_found`", content: errorContent },
  429: { description: "`rate_limited`; see `Retry-After`", content: errorContent },
  500: { description: "`internal_error`, with the request id in details", content: errorContent },
} as const;

/** An error a route documents beyond the common ones (a 409), in the envelope. */
export const errorResponse = (description: string) => ({ description, content: errorContent });

/** A 429's `Retry-After`. */
export const retryAfterHeaders = z.object({
  "Retry-After": z
    .string()
    .regex(/^[1-9][0-9]*$/)
    .meta({ description: "Seconds to wait" }),
});

/** 429 of the password slow-down (lib/attempt-limiter.ts): the envelope, and when to come back. */
export const passwordSlowDownResponse = {
  description:
    "`rate_limited`: too many wrong passwords from this address (`details.per` `address`) or for this target from all addresses (`per` `target`); nothing was checked. `details.retryAfterSeconds` and `Retry-After` say when to try again.",
  headers: retryAfterHeaders,
  content: errorContent,
};

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

export const workspaceParams = z.object({
  workspaceId: z
    .string()
    .min(1)
    .max(64)
    .meta({ param: { name: "workspaceId", in: "path" } }),
});

/** An id in the path (a webhook, a delivery, a job…), named as the route's path names it. */
export const pathId = (name: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .meta({ param: { name, in: "path" } });

type ApiRouteConfig = Omit<RouteConfig, "security" | "middleware" | "operationId" | "summary"> & {
  /** Generated clients name their methods from it: a verb and the resource, unique. */
  operationId: string;
  summary: string;
  /** Scopes that allow the call; any one is enough. Empty: any valid key. */
  scopes: readonly Scope[];
  /** Marks an operation the spec does not define. */
  extension?: boolean;
};

/**
 * A route with the standard error responses, its scopes in `security` and `x-scopes`, and the
 * scope check run before validation (so a key without the scope learns nothing from a 400).
 */
export function apiRoute<const R extends ApiRouteConfig>(config: R) {
  const { scopes, extension, ...rest } = config;
  return createRoute({
    ...rest,
    security: scopes.length ? scopes.map((s) => ({ bearerAuth: [s] })) : [{ bearerAuth: [] }],
    "x-scopes": scopes,
    ...(extension ? { "x-consign-extension": true } : {}),
    responses: { ...errorResponses, ...rest.responses } as typeof errorResponses & R["responses"],
    middleware: requireScopes(scopes),
  });
}

/**
 * An operation of a public page (a share's, a portal's), which anyone with the link may call: no
 * key, documented with no security requirement.
 */
export function publicRoute<const R extends Omit<ApiRouteConfig, "scopes" | "tags">>(
  tags: string[],
  config: R,
) {
  return { ...apiRoute({ ...config, tags, scopes: [], extension: true }), security: [] };
}

export const requireScopes = (scopes: readonly Scope[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const auth = c.get("auth");
    if (scopes.length > 0 && !scopes.some((s) => auth.scopes.includes(s))) {
      throw new ApiError(403, "forbidden", `This key lacks the ${scopes.join(" or ")} scope`, {
        reason: "missing_scope",
        requiredScopes: scopes,
        keyScopes: auth.scopes,
      });
    }
    await next();
  });
