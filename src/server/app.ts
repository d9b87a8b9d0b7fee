import type { AppDeps } from "./deps";
import { serveConsole } from "./http/console";
import { errorHandler, notFoundHandler } from "./http/error-handler";
import { serveOpenApiDocument } from "./http/openapi-document";
import { API_PREFIX, applyApiPipeline, applyAppPipeline } from "./http/pipeline";
import { createRouter } from "./http/router";
import { INTERNAL_PREFIX, internalRouter } from "./node/internal.routes";
import { routers } from "./routes";

/** The service: the pipeline, every module's routes under /v1 with their document, the console. */
export function createApp(deps: AppDeps) {
  const app = createRouter();
  applyAppPipeline(app, deps);

  const v1 = createRouter();
  applyApiPipeline(v1, deps);
  for (const router of routers) v1.route("/", router);
  serveOpenApiDocument(v1);
  app.route(API_PREFIX, v1);
  app.route(INTERNAL_PREFIX, internalRouter);

  serveConsole(app, deps);
  app.notFound(notFoundHandler);
  app.onError(errorHandler(deps.log));
  return app;
}
