import { createRouter } from "@/server/http/router";
import * as handlers from "./operations.handlers";
import * as routes from "./operations.routes";

// The one place a route meets its handler (see docs/architecture.md, the module style).
export const operationsRouter = createRouter()
  .openapi(routes.createFileOperationRoute, handlers.createFileOperation)
  .openapi(routes.listFileOperationsRoute, handlers.listFileOperations)
  .openapi(routes.getFileOperationRoute, handlers.getFileOperation)
  .openapi(routes.cancelFileOperationRoute, handlers.cancelFileOperation);
