import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import type { listEventsRoute } from "./events.routes";

export const listEvents: RouteHandler<typeof listEventsRoute, AppEnv> = async (c) => {
  const page = await c
    .get("deps")
    .eventsStore.page(c.get("auth").workspaceId, c.req.valid("query"));
  return c.json(page, 200);
};
