import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./rename.routes";
import { renameBatch as run } from "./rename.service";

export const renameBatch: RouteHandler<typeof r.renameBatchRoute, AppEnv> = (c) =>
  c.json(run(c.get("deps").files, c.get("auth").workspaceId, c.req.valid("json")), 200);
