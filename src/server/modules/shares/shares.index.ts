import { createRouter } from "@/server/http/router";
import * as handlers from "./shares.handlers";
import * as routes from "./shares.routes";

// The one place a route meets its handler (as webhooks.index.ts): the declarations import no
// handler, so the handlers may import the declarations' types without a circle.
export const sharesRouter = createRouter()
  .openapi(routes.listSharesRoute, handlers.listShares)
  .openapi(routes.createShareRoute, handlers.createShare)
  .openapi(routes.bulkSharesRoute, handlers.bulkShares)
  .openapi(routes.getShareRoute, handlers.getShare)
  .openapi(routes.updateShareRoute, handlers.updateShare)
  .openapi(routes.revokeShareRoute, handlers.revokeShare)
  .openapi(routes.listCommentsRoute, handlers.listComments)
  .openapi(routes.addCommentRoute, handlers.addComment)
  .openapi(routes.resendShareRoute, handlers.resendShare)
  .openapi(routes.listOutboxRoute, handlers.listOutbox)
  .openapi(routes.getReceiptRoute, handlers.getReceipt)
  .openapi(routes.getReceiptPdfRoute, handlers.getReceiptPdf)
  .openapi(routes.getAuditPdfRoute, handlers.getAuditPdf)
  .openapi(routes.getReceiptCsvRoute, handlers.getReceiptCsv)
  .openapi(routes.getDeliveryNoteRoute, handlers.getDeliveryNote);
