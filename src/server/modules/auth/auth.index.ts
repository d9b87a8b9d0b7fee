import { createRouter } from "@/server/http/router";
import * as handlers from "./auth.handlers";
import * as routes from "./auth.routes";

// The one place a route meets its handler (see docs/architecture.md, the module style).
export const authRouter = createRouter().openapi(routes.getKeyInfoRoute, handlers.getKeyInfo);
