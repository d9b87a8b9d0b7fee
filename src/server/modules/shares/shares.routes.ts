import { z } from "@hono/zod-openapi";
import { outboxPageSchema, outboxQuerySchema } from "@/contract/mail";
import { receiptSchema } from "@/contract/receipts";
import {
  bulkSharesBodySchema,
  bulkSharesResultSchema,
  commentsPageSchema,
  createCommentBodySchema,
  createdShareSchema,
  createShareBodySchema,
  listCommentsQuerySchema,
  listSharesQuerySchema,
  resendBodySchema,
  resendResponseSchema,
  shareCommentSchema,
  shareSchema,
  sharesPageSchema,
  updateShareBodySchema,
} from "@/contract/shares";
import { pollableResponses } from "@/server/http/etag";
import { apiRoute, json, jsonBody, pathId, workspaceParams } from "@/server/http/router";

const tags = ["Shares"];
const receiptTags = ["Receipts"];
/** Spec: share reads are allowed by either scope; writes need shares:write. */
const read = ["shares:write", "receipts:read"] as const;
const write = ["shares:write"] as const;
const receipts = ["receipts:read"] as const;
const shareParams = workspaceParams.extend({ shareId: pathId("shareId") });
const file = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: z.string().meta({ format: "binary" }) } },
});

export const listSharesRoute = apiRoute({
  operationId: "listShares",
  method: "get",
  path: "/workspaces/{workspaceId}/shares",
  tags,
  scopes: read,
  summary: "List shares",
  description:
    "Newest first, `limit` per page (default 50, up to 200); pass `next` as `cursor` for the following page. Filters (each optional, combined with AND): `status` (active, expired, revoked, exhausted), `expiringWithinDays` (active shares expiring within N days), `neverOpened` (nobody viewed or downloaded), `recipient` (shares sent to that address, any case).",
  request: { params: workspaceParams, query: listSharesQuerySchema },
  responses: { 200: json(sharesPageSchema, "A page of shares") },
});

export const getShareRoute = apiRoute({
  operationId: "getShare",
  method: "get",
  path: "/workspaces/{workspaceId}/shares/{shareId}",
  tags,
  scopes: read,
  summary: "Read one share",
  description:
    "The share with its status, items as shared, limits, counters and recipients (each with their views and downloads). Personal links are not shown again. 404 for an unknown id.",
  request: { params: shareParams },
  responses: { 200: json(shareSchema, "The share") },
});

export const createShareRoute = apiRoute({
  operationId: "createShare",
  method: "post",
  path: "/workspaces/{workspaceId}/shares",
  tags,
  scopes: write,
  summary: "Share files and folders by link",
  description:
    "Snapshots the files the paths name now (a folder: every file inside it, at most 10,000 files in all: `too_many_files`; an empty selection: `no_files`; a file stored with content protection: `content_protected`; an unknown path: 404 with `details.path`), so later changes to those files do not change what the share delivers. `expiresInDays` 1 to 365 (default 7), `maxDownloads` 1 to 10,000 completed downloads (omitted: no limit), `password` 8 to 256 characters (kept as a scrypt hash), `recipients` up to 50 addresses, each given a personal link that is mailed (SMTP_URL) or put in the outbox, and shown in `recipientLinks` of this answer only. `url` is the plain link (`{origin}/s/{token}`). Records `share.created`.",
  request: { params: workspaceParams, body: jsonBody(createShareBodySchema) },
  responses: { 201: json(createdShareSchema, "The share, with each recipient's personal link") },
});

export const updateShareRoute = apiRoute({
  operationId: "updateShare",
  method: "patch",
  path: "/workspaces/{workspaceId}/shares/{shareId}",
  tags,
  scopes: write,
  summary: "Extend a share or change its download limit",
  description:
    "`expiresInDays` (from now) or `expiresAt` (a future time at most 365 days ahead: `in_the_past`, `too_far`), and/or `maxDownloads` (null: no limit). An expired or exhausted share becomes active again; a revoked one is refused (`revoked`). Records `share.extended` with the previous values.",
  request: { params: shareParams, body: jsonBody(updateShareBodySchema) },
  responses: { 200: json(shareSchema, "The share as changed") },
});

export const revokeShareRoute = apiRoute({
  operationId: "revokeShare",
  method: "delete",
  path: "/workspaces/{workspaceId}/shares/{shareId}",
  tags,
  scopes: write,
  summary: "Revoke a share",
  description:
    "Every link of the share stops working for good; the share and its receipt stay. Answers 200 with the revoked share (not 204: the console shows the record it now has); revoking again changes nothing and records no second `share.revoked`.",
  request: { params: shareParams },
  responses: { 200: json(shareSchema, "The revoked share") },
});

export const bulkSharesRoute = apiRoute({
  operationId: "bulkShares",
  method: "post",
  path: "/workspaces/{workspaceId}/shares/bulk",
  tags,
  scopes: write,
  extension: true,
  summary: "Extend or revoke many shares at once",
  description:
    "`action` `extend` (with `expiresInDays` or `expiresAt`, as for one share) or `revoke`, for 1 to 500 `shareIds`, in one transaction. Each share is changed exactly as its single operation would change it and records its own `share.extended` or `share.revoked`. A share that operation would refuse (an unknown id: `not_found`; extending a revoked share: `revoked`) stays as it was and is listed in `failed` with that code; the rest are done. Answers 200 with `{done, failed}`.",
  request: { params: workspaceParams, body: jsonBody(bulkSharesBodySchema) },
  responses: { 200: json(bulkSharesResultSchema, "What was done and what was refused") },
});

export const listCommentsRoute = apiRoute({
  operationId: "listShareComments",
  method: "get",
  path: "/workspaces/{workspaceId}/shares/{shareId}/comments",
  tags,
  scopes: read,
  summary: "List a share's comments",
  description:
    "Oldest first, `limit` per page (default 200, up to 500; `after` = the previous page's `next`). A reply carries `parentId`, the first comment of its thread.",
  request: { params: shareParams, query: listCommentsQuerySchema },
  responses: { 200: json(commentsPageSchema, "A page of comments") },
});

export const addCommentRoute = apiRoute({
  operationId: "addShareComment",
  method: "post",
  path: "/workspaces/{workspaceId}/shares/{shareId}/comments",
  tags,
  scopes: write,
  summary: "Comment on a share, or reply",
  description:
    "`body` 1 to 2000 characters; the key's member is the author. With `parentId` it is a reply; threads are one level deep, so a reply to a reply joins its thread (`unknown_parent` for an id that is not a comment of this share). Extension: an `anchor` points it at a time (`timeMs`) or a PDF page (`page`), exactly one (`time_or_page`), of one of the share's files (`not_in_share`); a time only in audio or video and a page only in a PDF (`wrong_kind`), neither past the file's end when that is known (`past_end`).",
  request: { params: shareParams, body: jsonBody(createCommentBodySchema) },
  responses: { 201: json(shareCommentSchema, "The comment") },
});

export const resendShareRoute = apiRoute({
  operationId: "resendShare",
  method: "post",
  path: "/workspaces/{workspaceId}/shares/{shareId}/resend",
  tags,
  scopes: write,
  summary: "Send the link to recipients again",
  description:
    "To the listed recipients, or all of them: each gets a fresh personal link by mail (their earlier links keep working). Only for an active share (`share_not_active`); every address must be a recipient (`unknown_recipient`, `details.emails`); a share without recipients: `no_recipients`.",
  request: { params: shareParams, body: jsonBody(resendBodySchema) },
  responses: { 200: json(resendResponseSchema, "The messages queued") },
});

export const listOutboxRoute = apiRoute({
  operationId: "listOutbox",
  method: "get",
  path: "/workspaces/{workspaceId}/outbox",
  tags,
  scopes: ["shares:write", "portals:write"],
  extension: true,
  summary: "List the mail outbox",
  description:
    "Share and portal mail, newest first: `waiting` (no SMTP_URL is set: deliver the link by hand), `queued`, `sent`, `failed`. A message's personal link is shown until the SMTP server has accepted it, then forgotten. A portal's phone invites are here with `channel` `sms`, `waiting` and the error \"Not sent: no SMS provider is configured\". Filters `status`, `shareId`, `portalId`; `cursor`/`limit` as for shares. A key reads the mail of the areas it manages: `shares:write` the share mail (with recipients' personal links), `portals:write` the portal mail, both scopes all of it.",
  request: { params: workspaceParams, query: outboxQuerySchema },
  responses: { 200: json(outboxPageSchema, "A page of messages") },
});

export const getReceiptRoute = apiRoute({
  operationId: "getShareReceipt",
  method: "get",
  path: "/workspaces/{workspaceId}/shares/{shareId}/receipt",
  tags: receiptTags,
  scopes: read,
  summary: "The delivery receipt",
  description:
    "Who viewed and downloaded what, when and from where, whether each download verified (every file's SHA-256, as computed by the receiving engine, matched), the timeline, and every file with its checksum. `verdict` answers whether each recipient now holds an intact copy of every file (their latest completed download of each decides; `src/contract/receipt-verdict.ts`); `integrity` is `verified` exactly when the verdict is. Made to be polled while open: send the last `ETag` as `If-None-Match` and an unchanged receipt is 304 with no body.",
  request: { params: shareParams },
  responses: pollableResponses(receiptSchema, "The receipt"),
});

export const getReceiptPdfRoute = apiRoute({
  operationId: "getShareReceiptPdf",
  method: "get",
  path: "/workspaces/{workspaceId}/shares/{shareId}/receipt.pdf",
  tags: receiptTags,
  scopes: receipts,
  summary: "The delivery receipt as PDF, for the client",
  description:
    "The document a sender forwards to a client: the workspace's name and logo (settings), the verdict, who received which files, and every file's SHA-256; paged. No addresses, failed passwords or other security events: those are in `audit.pdf`.",
  request: { params: shareParams },
  responses: { 200: file("application/pdf", "The receipt") },
});

export const getAuditPdfRoute = apiRoute({
  operationId: "getShareAuditPdf",
  method: "get",
  path: "/workspaces/{workspaceId}/shares/{shareId}/audit.pdf",
  tags: receiptTags,
  scopes: receipts,
  extension: true,
  summary: "The audit report as PDF, for the sender",
  description:
    "Everything the receipt records: the verdict, recipients, every download with the address it came from, files that did not verify, the timeline (failed passwords and comments in full; repeats of one event by one person are one row with a count) and every checksum.",
  request: { params: shareParams },
  responses: { 200: file("application/pdf", "The audit report") },
});

export const getReceiptCsvRoute = apiRoute({
  operationId: "getShareReceiptCsv",
  method: "get",
  path: "/workspaces/{workspaceId}/shares/{shareId}/receipt.csv",
  tags: receiptTags,
  scopes: receipts,
  summary: "The verification report as CSV",
  description:
    "One row per shared file: `path,size_bytes,sha256,downloads,verified_downloads,failed_verifications,status` (verified, mismatch, not_downloaded), CRLF line ends; a field that a spreadsheet would run as a formula starts with `'`.",
  request: { params: shareParams },
  responses: { 200: file("text/csv", "The verification report") },
});

export const getDeliveryNoteRoute = apiRoute({
  operationId: "getShareDeliveryNote",
  method: "get",
  path: "/workspaces/{workspaceId}/shares/{shareId}/delivery-note.pdf",
  tags: receiptTags,
  scopes: receipts,
  summary: "A printable delivery note",
  description:
    "What was delivered, to whom, each file with its SHA-256, and a line to sign on receipt.",
  request: { params: shareParams },
  responses: { 200: file("application/pdf", "The delivery note") },
});
