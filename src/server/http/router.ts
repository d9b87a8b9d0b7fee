import { createRoute, OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { errorEnvelopeSchema, PATH_REJECTED, type Scope } from "@/contract/common";
import { ApiError } from "@/server/lib/api-error";
import type { AppEnv } from "./types";

/**
 * Every router validates with the contract and answers failures in the spec's envelope:
 * `path_rejected` when a path check failed, `validation_failed` otherwise, each issue named.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (result.success) return;
      const issues = result.error.issues.map((issue) => {
        const where = issue.path.join(".");
        const field =
          result.target === "json" ? where : `${result.target}${where ? `.${where}` : ""}`;
        const code =
          issue.code === "custom" &&
          (issue as { params?: { code?: string } }).params?.code === PATH_REJECTED
            ? PATH_REJECTED
            : issue.code;
        return { field: field || "body", message: issue.message, code };
      });
      const rejected = issues.find((i) => i.code === PATH_REJECTED);
      if (rejected)
        throw new ApiError(400, "path_rejected", `${rejected.field}: ${rejected.message}`, {
          issues,
        });
      const summary = issues.map((i) => `${i.field}: ${i.message}`).join("; ");
      throw new ApiError(400, "validation_failed", `Invalid request: ${summary}`, { issues });
    },
  });
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

type ApiRouteConfig = Omit<RouteConfig, "security" | "middleware"> & {
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
