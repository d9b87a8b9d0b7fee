import { createRouter } from "@/server/http/router";
import * as handlers from "./events.handlers";
import * as routes from "./events.routes";

// The one place a route meets its handler (see docs/architecture.md, the module style).
export const eventsRouter = createRouter().openapi(routes.listEventsRoute, handlers.listEvents);
