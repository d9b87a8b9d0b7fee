import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./rename.routes";

export const renameBatch: RouteHandler<typeof r.renameBatchRoute, AppEnv> = async (c) =>
  c.json(
    await c.get("deps").filesStore.renameBatch(c.get("auth").workspaceId, c.req.valid("json")),
    200,
  );
