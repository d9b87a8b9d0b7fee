import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import type { getAttentionRoute } from "./attention.routes";
import { buildAttention, etagOf } from "./attention.service";

export const getAttention: RouteHandler<typeof getAttentionRoute, AppEnv> = (c) => {
  const { workspaceId, scopes } = c.get("auth");
  const { limit } = c.req.valid("query");
  const body = JSON.stringify(buildAttention(c.get("deps"), workspaceId, scopes, limit));
  const tag = etagOf(body);
  c.header("ETag", tag);
  // Kept by the browser only to be asked again: a poll always reaches the service.
  c.header("Cache-Control", "private, no-cache");
  const held = c.req.valid("header")["if-none-match"];
  if (held?.split(",").some((t) => t.trim() === tag)) return c.body(null, 304);
  return c.body(body, 200, { "Content-Type": "application/json" });
};
