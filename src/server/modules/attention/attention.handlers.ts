import type { RouteHandler } from "@hono/zod-openapi";
import { pollableJson } from "@/server/http/etag";
import type { AppEnv } from "@/server/http/types";
import type { getAttentionRoute } from "./attention.routes";
import { buildAttention } from "./attention.service";

export const getAttention: RouteHandler<typeof getAttentionRoute, AppEnv> = (c) => {
  const { workspaceId, scopes } = c.get("auth");
  const { limit } = c.req.valid("query");
  return pollableJson(c, buildAttention(c.get("deps"), workspaceId, scopes, limit)) as never;
};
