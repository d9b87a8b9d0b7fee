import { createRouter } from "@/server/http/router";
import * as handlers from "./public.handlers";
import * as routes from "./public.routes";

// The portal page's routes meet their handlers here (as webhooks.index.ts).
export const publicPortalsRouter = createRouter()
  .openapi(routes.getPublicPortalRoute, handlers.getPublicPortal)
  .openapi(routes.unlockPortalRoute, handlers.unlockPortal)
  .openapi(routes.startPortalUploadRoute, handlers.startPortalUpload)
  .openapi(routes.completePortalUploadRoute, handlers.completePortalUpload)
  .openapi(routes.cancelPortalUploadRoute, handlers.cancelPortalUpload)
  .openapi(routes.getPortalUploadStatusRoute, handlers.getPortalUploadStatus);
