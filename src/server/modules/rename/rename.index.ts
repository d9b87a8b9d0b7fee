import { createRouter } from "@/server/http/router";
import * as handlers from "./rename.handlers";
import * as routes from "./rename.routes";

// The one place a route meets its handler (see docs/architecture.md, the module style).
export const renameRouter = createRouter().openapi(routes.renameBatchRoute, handlers.renameBatch);
