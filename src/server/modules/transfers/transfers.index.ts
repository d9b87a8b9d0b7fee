import { createRouter } from "@/server/http/router";
import * as handlers from "./transfers.handlers";
import * as routes from "./transfers.routes";

// The one place a route meets its handler (see docs/architecture.md, the module style).
export const transfersRouter = createRouter()
  .openapi(routes.createTransferRoute, handlers.createTransfer)
  .openapi(routes.listTransfersRoute, handlers.listTransfers)
  .openapi(routes.getTransferRoute, handlers.getTransfer)
  .openapi(routes.updateTransferRoute, handlers.updateTransfer);
