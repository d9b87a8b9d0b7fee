import { createRouter } from "@/server/http/router";
import * as handlers from "./portals.handlers";
import * as routes from "./portals.routes";

// The one place a route meets its handler (see docs/architecture.md, the module style).
export const portalsRouter = createRouter()
  .openapi(routes.createPortalRoute, handlers.createPortal)
  .openapi(routes.listPortalsRoute, handlers.listPortals)
  .openapi(routes.getPortalRoute, handlers.getPortal)
  .openapi(routes.updatePortalRoute, handlers.updatePortal)
  .openapi(routes.revokePortalRoute, handlers.revokePortal)
  .openapi(routes.reviewUploadRoute, handlers.reviewUpload)
  .openapi(routes.listUploadsRoute, handlers.listUploads)
  .openapi(routes.bulkReviewRoute, handlers.bulkReview)
  .openapi(routes.listUploadNotesRoute, handlers.listUploadNotes)
  .openapi(routes.addUploadNoteRoute, handlers.addUploadNote)
  .openapi(routes.deleteUploadNoteRoute, handlers.deleteUploadNote);
