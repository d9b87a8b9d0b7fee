import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "@/server/http/types";
import { pdfRenderer } from "./receipt-render";
import { buildReceipt, receiptCsv } from "./receipts.service";
import type * as r from "./shares.routes";
import * as s from "./shares.service";

const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin;
const caller = (c: Context<AppEnv>): s.Caller => {
  const { workspaceId, memberId, keyId } = c.get("auth");
  return { workspaceId, memberId, keyId, origin: origin(c) };
};
const attachment = (name: string) => `attachment; filename="${name}"`;

export const listShares: RouteHandler<typeof r.listSharesRoute, AppEnv> = (c) =>
  c.json(
    s.listShares(c.get("deps"), c.get("auth").workspaceId, c.req.valid("query"), origin(c)),
    200,
  );

export const createShare: RouteHandler<typeof r.createShareRoute, AppEnv> = async (c) =>
  c.json(await s.createShare(c.get("deps"), caller(c), c.req.valid("json")), 201);

export const getShare: RouteHandler<typeof r.getShareRoute, AppEnv> = (c) =>
  c.json(
    s.getShare(c.get("deps"), c.get("auth").workspaceId, c.req.valid("param").shareId, origin(c)),
    200,
  );

export const updateShare: RouteHandler<typeof r.updateShareRoute, AppEnv> = (c) =>
  c.json(
    s.updateShare(
      c.get("deps"),
      c.get("auth").workspaceId,
      c.req.valid("param").shareId,
      c.req.valid("json"),
      origin(c),
    ),
    200,
  );

export const revokeShare: RouteHandler<typeof r.revokeShareRoute, AppEnv> = (c) =>
  c.json(
    s.revokeShare(
      c.get("deps"),
      c.get("auth").workspaceId,
      c.req.valid("param").shareId,
      origin(c),
    ),
    200,
  );

export const bulkShares: RouteHandler<typeof r.bulkSharesRoute, AppEnv> = (c) =>
  c.json(
    s.bulkShares(c.get("deps"), c.get("auth").workspaceId, c.req.valid("json"), origin(c)),
    200,
  );

export const listComments: RouteHandler<typeof r.listCommentsRoute, AppEnv> = (c) =>
  c.json(
    s.listComments(
      c.get("deps"),
      c.get("auth").workspaceId,
      c.req.valid("param").shareId,
      c.req.valid("query"),
    ),
    200,
  );

export const addComment: RouteHandler<typeof r.addCommentRoute, AppEnv> = (c) =>
  c.json(
    s.addMemberComment(
      c.get("deps"),
      c.get("auth"),
      c.req.valid("param").shareId,
      c.req.valid("json"),
    ),
    201,
  );

export const resendShare: RouteHandler<typeof r.resendShareRoute, AppEnv> = (c) =>
  c.json(
    s.resendShare(
      c.get("deps"),
      caller(c),
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
  return c.json(s.listOutbox(c.get("deps"), workspaceId, { ...c.req.valid("query"), area }), 200);
};

const receiptOf = (c: Context<AppEnv>, shareId: string) =>
  buildReceipt(c.get("deps"), c.get("auth").workspaceId, shareId, origin(c));

export const getReceipt: RouteHandler<typeof r.getReceiptRoute, AppEnv> = (c) =>
  c.json(receiptOf(c, c.req.valid("param").shareId), 200);

export const getReceiptPdf: RouteHandler<typeof r.getReceiptPdfRoute, AppEnv> = async (c) => {
  const { shareId } = c.req.valid("param");
  const pdf = await pdfRenderer(c.get("deps")).pdf("receipt", receiptOf(c, shareId));
  return c.body(new Uint8Array(pdf), 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": attachment(`receipt-${shareId}.pdf`),
  }) as never;
};

export const getReceiptCsv: RouteHandler<typeof r.getReceiptCsvRoute, AppEnv> = (c) => {
  const { shareId } = c.req.valid("param");
  const csv = receiptCsv(c.get("deps"), c.get("auth").workspaceId, shareId);
  return c.body(csv, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": attachment(`receipt-${shareId}.csv`),
  }) as never;
};

export const getDeliveryNote: RouteHandler<typeof r.getDeliveryNoteRoute, AppEnv> = async (c) => {
  const { shareId } = c.req.valid("param");
  const pdf = await pdfRenderer(c.get("deps")).pdf("delivery-note", receiptOf(c, shareId));
  return c.body(new Uint8Array(pdf), 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": attachment(`delivery-note-${shareId}.pdf`),
  }) as never;
};
