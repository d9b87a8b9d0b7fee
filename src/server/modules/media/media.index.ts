import { createRouter } from "@/server/http/router";
import * as handlers from "./media.handlers";
import * as routes from "./media.routes";

// The media routes meet their handlers here (as webhooks.index.ts).
export const mediaRouter = createRouter()
  .openapi(routes.getProxyStatusRoute, handlers.getProxyStatus)
  .openapi(routes.renderProxiesRoute, handlers.renderProxies)
  .openapi(routes.getProxyRoute, handlers.getProxy)
  .openapi(routes.listRendersRoute, handlers.listRenders)
  .openapi(routes.getMediaRoute, handlers.getMedia);
