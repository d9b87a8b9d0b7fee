import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { callerOf } from "@/server/http/caller";
import { pollableJson } from "@/server/http/etag";
import { textStream } from "@/server/http/text-stream";
import type { AppEnv } from "@/server/http/types";
import * as outbox from "@/server/modules/mail/outbox.service";
import { logoForDocuments } from "@/server/modules/settings/settings.service";
import * as lifecycle from "./lifecycle.service";
import { type PdfKind, pdfRenderer } from "./receipt-render";
import * as mail from "./share-mail.service";
import type * as r from "./shares.routes";

const attachment = (name: string) => `attachment; filename="${name}"`;

export const listShares: RouteHandler<typeof r.listSharesRoute, AppEnv> = async (c) =>
  c.json(await c.get("deps").sharesStore.listShares(callerOf(c), c.req.valid("query")), 200);

export const createShare: RouteHandler<typeof r.createShareRoute, AppEnv> = async (c) =>
  c.json(await c.get("deps").sharesStore.createShare(callerOf(c), c.req.valid("json")), 201);

export const getShare: RouteHandler<typeof r.getShareRoute, AppEnv> = async (c) =>
  c.json(await c.get("deps").sharesStore.getShare(callerOf(c), c.req.valid("param").shareId), 200);

export const updateShare: RouteHandler<typeof r.updateShareRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .sharesStore.updateShare(callerOf(c), c.req.valid("param").shareId, c.req.valid("json")),
    200,
  );

export const revokeShare: RouteHandler<typeof r.revokeShareRoute, AppEnv> = async (c) =>
  c.json(
    await c.get("deps").sharesStore.revokeShare(callerOf(c), c.req.valid("param").shareId),
    200,
  );

export const bulkShares: RouteHandler<typeof r.bulkSharesRoute, AppEnv> = (c) =>
  c.json(lifecycle.bulkShares(c.get("deps"), callerOf(c), c.req.valid("json")), 200);

export const listComments: RouteHandler<typeof r.listCommentsRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .sharesStore.listShareComments(
        callerOf(c),
        c.req.valid("param").shareId,
        c.req.valid("query"),
      ),
    200,
  );

export const addComment: RouteHandler<typeof r.addCommentRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .sharesStore.addShareComment(callerOf(c), c.req.valid("param").shareId, c.req.valid("json")),
    201,
  );

export const resendShare: RouteHandler<typeof r.resendShareRoute, AppEnv> = (c) =>
  c.json(
    mail.resendShare(
      c.get("deps"),
      callerOf(c),
      c.req.valid("param").shareId,
      c.req.valid("json").recipients,
    ),
    200,
  );

/** A personal link is a credential: a key reads the mail of the areas it may manage, no other. */
export const listOutbox: RouteHandler<typeof r.listOutboxRoute, AppEnv> = (c) => {
  const { workspaceId, scopes } = c.get("auth");
  const shares = scopes.includes("shares:write");
  const portals = scopes.includes("portals:write");
  const area = shares && portals ? undefined : shares ? "shares" : "portals";
  return c.json(
    outbox.listOutbox(c.get("deps"), workspaceId, { ...c.req.valid("query"), area }),
    200,
  );
};

export const getReceipt: RouteHandler<typeof r.getReceiptRoute, AppEnv> = async (c) => {
  const { shareId } = c.req.valid("param");
  const receipt = await c.get("deps").sharePublicStore.receipt(callerOf(c), shareId);
  return pollableJson(c, receipt, `"generatedAt":"${receipt.generatedAt}"`) as never;
};

/** One of the receipt's PDFs, branded with the workspace's name and logo. */
async function receiptDocument(c: Context<AppEnv>, shareId: string, kind: PdfKind) {
  const deps = c.get("deps");
  const caller = callerOf(c);
  const receipt = await deps.sharePublicStore.receipt(caller, shareId);
  const logo = logoForDocuments(deps, caller.workspaceId);
  const pdf = await pdfRenderer(deps).pdf(kind, receipt, logo);
  return c.body(new Uint8Array(pdf), 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": attachment(`${kind}-${shareId}.pdf`),
  });
}

export const getReceiptPdf: RouteHandler<typeof r.getReceiptPdfRoute, AppEnv> = (c) =>
  receiptDocument(c, c.req.valid("param").shareId, "receipt") as never;

export const getAuditPdf: RouteHandler<typeof r.getAuditPdfRoute, AppEnv> = (c) =>
  receiptDocument(c, c.req.valid("param").shareId, "audit") as never;

export const getReceiptCsv: RouteHandler<typeof r.getReceiptCsvRoute, AppEnv> = async (c) => {
  const { shareId } = c.req.valid("param");
  const rows = await c.get("deps").sharePublicStore.receiptCsv(c.get("auth").workspaceId, shareId);
  return c.body(textStream(rows), 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": attachment(`receipt-${shareId}.csv`),
  }) as never;
};

export const getDeliveryNote: RouteHandler<typeof r.getDeliveryNoteRoute, AppEnv> = (c) =>
  receiptDocument(c, c.req.valid("param").shareId, "delivery-note") as never;
