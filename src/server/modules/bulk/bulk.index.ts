import { createRouter } from "@/server/http/router";
import * as handlers from "./bulk.handlers";
import * as routes from "./bulk.routes";

// The one place a route meets its handler (see docs/architecture.md, the module style).
export const bulkRouter = createRouter()
  .openapi(routes.createBulkJobRoute, handlers.createBulkJob)
  .openapi(routes.listBulkJobsRoute, handlers.listBulkJobs)
  .openapi(routes.getBulkJobRoute, handlers.getBulkJob)
  .openapi(routes.cancelBulkJobRoute, handlers.cancelBulkJob)
  .openapi(routes.undoBulkJobRoute, handlers.undoBulkJob);
