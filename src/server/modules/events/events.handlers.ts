import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import { eventsPage } from "./events.repository";
import type { listEventsRoute } from "./events.routes";

export const listEvents: RouteHandler<typeof listEventsRoute, AppEnv> = (c) => {
  const { db } = c.get("deps");
  return c.json(eventsPage(db, c.get("auth").workspaceId, c.req.valid("query")), 200);
};
