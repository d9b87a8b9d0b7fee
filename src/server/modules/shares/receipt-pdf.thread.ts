import { parentPort } from "node:worker_threads";
import { deliveryNotePdf, receiptPdf } from "./receipt-pdf";
import type { PdfReply, PdfRequest } from "./receipt-render";

/*
 * A thread that renders PDFs one at a time for receipt-render.ts: pdfkit lays a document out
 * synchronously (about a second for 10,000 files), which here holds up no request. It keeps the
 * process's priority (unlike a bulk job's thread): someone is waiting for the PDF, and the cap
 * on threads is what leaves the main thread its core.
 */

parentPort?.on("message", async ({ id, kind, receipt }: PdfRequest) => {
  let reply: PdfReply;
  try {
    reply = { id, pdf: await (kind === "receipt" ? receiptPdf : deliveryNotePdf)(receipt) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
});
