import { parentPort } from "node:worker_threads";
import { auditPdf } from "./audit-pdf";
import { deliveryNotePdf, receiptPdf } from "./receipt-pdf";
import type { PdfKind, PdfReply, PdfRequest } from "./receipt-render";

const renderers: Record<PdfKind, typeof receiptPdf> = {
  receipt: receiptPdf,
  audit: auditPdf,
  "delivery-note": deliveryNotePdf,
};

/*
 * A thread that renders PDFs one at a time for receipt-render.ts: pdfkit lays a document out
 * synchronously (about a second for 10,000 files), which here holds up no request. It keeps the
 * process's priority (unlike a bulk job's thread): someone is waiting for the PDF, and the cap
 * on threads is what leaves the main thread its core.
 */

parentPort?.on("message", async ({ id, kind, receipt, logo }: PdfRequest) => {
  let reply: PdfReply;
  try {
    reply = { id, pdf: await renderers[kind](receipt, logo) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
});
