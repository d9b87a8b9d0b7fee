import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { createRouter, pathId } from "@/server/http/router";
import type { AppEnv } from "@/server/http/types";
import { ApiError } from "@/server/lib/api-error";
import { hashSecret, safeEqual } from "@/server/lib/secrets";
import { commitUpload } from "./commit.service";

/** Where the service answers its data nodes; not in the public OpenAPI document. */
export const INTERNAL_PREFIX = "/internal/v1";

/**
 * A data node's credential: `Authorization: Bearer <node secret>`, whose SHA-256 is one of
 * NODE_SECRET_HASHES (the service keeps no secret in clear). With none configured the internal
 * routes do not exist (404), as in the embedded default, whose node calls the service in-process.
 */
const nodeCredential = createMiddleware<AppEnv>(async (c, next) => {
  const hashes = c.get("deps").config.nodeSecretHashes;
  if (hashes.length === 0)
    throw new ApiError(404, "not_found", `No route for ${c.req.method} ${c.req.path}`);
  const auth = c.req.header("Authorization");
  const presented = auth?.startsWith("Bearer ") ? hashSecret(auth.slice(7).trim()) : null;
  if (!presented || !hashes.some((h) => safeEqual(h, presented)))
    throw new ApiError(401, "unauthenticated", "A data node's credential is required", {
      reason: presented ? "unknown" : "missing",
    });
  await next();
});

const commitRoute = createRoute({
  method: "post",
  path: "/uploads/{uploadId}/commit",
  request: {
    params: z.object({ uploadId: pathId("uploadId") }),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({
            size: z.number().int().min(0),
            sha256: z.string().regex(/^[0-9a-f]{64}$/),
          }),
        },
      },
    },
  },
  responses: {
    200: {
      description: "The upload's commit: `committed: false` when it had been committed before",
      content: {
        "application/json": {
          schema: z.object({ uploadId: z.string(), sha256: z.string(), committed: z.boolean() }),
        },
      },
    },
  },
});

/** The service's calls for its data nodes (docs/scale-out.md, Data nodes). */
export const internalRouter = createRouter();
internalRouter.use("*", nodeCredential);
internalRouter.openapi(commitRoute, async (c) => {
  const { uploadId } = c.req.valid("param");
  const body = c.req.valid("json");
  return c.json(await commitUpload(c.get("deps"), { uploadId, ...body }), 200);
});
