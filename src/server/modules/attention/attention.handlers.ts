import type { RouteHandler } from "@hono/zod-openapi";
import { pollableJson } from "@/server/http/etag";
import type { AppEnv } from "@/server/http/types";
import type { getAttentionRoute } from "./attention.routes";

export const getAttention: RouteHandler<typeof getAttentionRoute, AppEnv> = async (c) => {
  const { workspaceId, scopes } = c.get("auth");
  const { limit } = c.req.valid("query");
  const attention = await c.get("deps").attentionStore.read(workspaceId, scopes, limit);
  return pollableJson(c, attention) as never;
};
