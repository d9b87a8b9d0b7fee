import { createRouter } from "@/server/http/router";
import * as handlers from "./files.handlers";
import * as routes from "./files.routes";

// The one place a route meets its handler (see docs/architecture.md, the module style).
export const filesRouter = createRouter()
  .openapi(routes.listFilesRoute, handlers.listFiles)
  .openapi(routes.renameFileRoute, handlers.renameFile)
  .openapi(routes.deleteFilesRoute, handlers.deleteFiles)
  .openapi(routes.searchFilesRoute, handlers.searchFiles)
  .openapi(routes.manifestRoute, handlers.manifest)
  .openapi(routes.createFolderRoute, handlers.createFolder)
  .openapi(routes.listTrashRoute, handlers.listTrash)
  .openapi(routes.restoreTrashRoute, handlers.restoreTrash)
  .openapi(routes.purgeTrashRoute, handlers.purgeTrash)
  .openapi(routes.listVersionsRoute, handlers.listVersions)
  .openapi(routes.restoreVersionRoute, handlers.restoreVersion)
  .openapi(routes.previewRoute, handlers.preview);
