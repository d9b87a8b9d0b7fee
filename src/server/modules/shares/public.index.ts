import { createRouter } from "@/server/http/router";
import * as handlers from "./public.handlers";
import * as routes from "./public.routes";

// The recipient page's routes meet their handlers here (as webhooks.index.ts).
export const publicSharesRouter = createRouter()
  .openapi(routes.getPublicShareRoute, handlers.getPublicShare)
  .openapi(routes.unlockShareRoute, handlers.unlockShare)
  .openapi(routes.startDownloadRoute, handlers.startDownload)
  .openapi(routes.completeDownloadRoute, handlers.completeDownload)
  .openapi(routes.listPublicCommentsRoute, handlers.listPublicComments)
  .openapi(routes.addPublicCommentRoute, handlers.addPublicComment)
  .openapi(routes.shareThumbnailRoute, handlers.shareThumbnail)
  .openapi(routes.sharePreviewRoute, handlers.sharePreview);
