import { z } from "@hono/zod-openapi";
import {
  bulkReviewBodySchema,
  bulkReviewResultSchema,
  createUploadNoteBodySchema,
  listPortalUploadsQuerySchema,
  portalUploadsPageSchema,
  reviewBodySchema,
  uploadNoteSchema,
  uploadNotesSchema,
} from "@/contract/portal-review";
import {
  createPortalBodySchema,
  portalDetailSchema,
  portalSchema,
  portalUploadSchema,
  updatePortalBodySchema,
} from "@/contract/portals";
import {
  apiRoute,
  errorResponse,
  json,
  jsonBody,
  pathId,
  workspaceParams,
} from "@/server/http/router";

const tags = ["Portals"];
/** Spec: portal reads are allowed by either scope; writes need portals:write. */
const read = ["portals:write", "receipts:read"] as const;
const write = ["portals:write"] as const;
const portalParams = workspaceParams.extend({ portalId: pathId("portalId") });
const uploadParams = portalParams.extend({ uploadId: pathId("uploadId") });
const queueUploadParams = workspaceParams.extend({ uploadId: pathId("uploadId") });
const noteParams = queueUploadParams.extend({ noteId: pathId("noteId") });

export const createPortalRoute = apiRoute({
  operationId: "createPortal",
  method: "post",
  path: "/workspaces/{workspaceId}/portals",
  tags,
  scopes: write,
  summary: "Create an upload portal",
  description:
    "A public page (`url`, `{origin}/p/{slug}`) where anyone with the link uploads files into `targetPath`, each upload in a folder of its own. `title` 1 to 120 characters, `message` up to 2000, `password` 8 to 256 (a scrypt hash is kept), `expiresInDays` 1 to 3650 (omitted: no expiry), `maxBytesPerUpload`, up to 20 `fields` (unique `key`s), `rules` (`allowedExtensions`, `maxFiles`, `namePattern`: RE2, `invalid_pattern`), `spec` (checked with ffprobe once an upload lands), up to 100 `inviteEmails` (mailed the link, or waiting in the outbox) and 100 `invitePhones` (listed in the outbox, not sent: no SMS provider). A file where `targetPath` or `approvedPath` must be a folder: `file_in_the_way`. Starts `active`; records `portal.created`.",
  request: { params: workspaceParams, body: jsonBody(createPortalBodySchema) },
  responses: { 201: json(portalSchema, "The portal") },
});

export const listPortalsRoute = apiRoute({
  operationId: "listPortals",
  method: "get",
  path: "/workspaces/{workspaceId}/portals",
  tags,
  scopes: read,
  summary: "List upload portals",
  description:
    "Newest first, revoked ones included (500 at most), each with `awaitingReview`: its uploads received or pending.",
  request: { params: workspaceParams },
  responses: { 200: json(z.array(portalSchema), "The portals") },
});

export const getPortalRoute = apiRoute({
  operationId: "getPortal",
  method: "get",
  path: "/workspaces/{workspaceId}/portals/{portalId}",
  tags,
  scopes: read,
  summary: "Read one upload portal with its uploads",
  description:
    "The portal and its 200 newest uploads (`listPortalUploads` pages through all). 404 for an unknown id.",
  request: { params: portalParams },
  responses: { 200: json(portalDetailSchema, "The portal with its uploads") },
});

export const updatePortalRoute = apiRoute({
  operationId: "updatePortal",
  method: "patch",
  path: "/workspaces/{workspaceId}/portals/{portalId}",
  tags,
  scopes: write,
  summary: "Change, pause or resume an upload portal",
  description:
    "Every member optional; given ones replace what is stored (`null` clears `message`, `password`, `maxBytesPerUpload`, `expiresInDays`, `projectId`). `status` `paused` stops the page taking uploads (files already arriving are refused by the node), `active` resumes. `expiresInDays` counts from now. A revoked portal cannot be changed (`revoked`). Extensions: `dueAt`, `fields`, `rules`, `spec`, `approvedPath`.",
  request: { params: portalParams, body: jsonBody(updatePortalBodySchema) },
  responses: { 200: json(portalSchema, "The portal as changed") },
});

export const revokePortalRoute = apiRoute({
  operationId: "revokePortal",
  method: "delete",
  path: "/workspaces/{workspaceId}/portals/{portalId}",
  tags,
  scopes: write,
  summary: "Revoke an upload portal",
  description:
    "The page stops taking uploads for good; the portal and its uploads stay readable. 204; revoking again changes nothing. No event (the spec lists none for it).",
  request: { params: portalParams },
  responses: { 204: { description: "Revoked; no body" } },
});

export const reviewUploadRoute = apiRoute({
  operationId: "reviewPortalUpload",
  method: "post",
  path: "/workspaces/{workspaceId}/portals/{portalId}/uploads/{uploadId}/review",
  tags,
  scopes: write,
  summary: "Approve, reject or hold a portal upload",
  description:
    "`decision` `approved`, `rejected` or `pending` becomes the upload's status, with the `note` (up to 500), the key's member as reviewer and the time. Only once its files landed (`not_received`). Deciding again replaces the decision. Approving, when the portal has `approvedPath`, moves the upload's folder there with a move job; deciding an approved upload otherwise (the console's undo) moves it back where the approval took it from (a move not yet run is cancelled), or is refused with 409 `conflict` when something now stands there. Records `portal.upload.reviewed` (extension).",
  request: { params: uploadParams, body: jsonBody(reviewBodySchema) },
  responses: {
    200: json(portalUploadSchema, "The upload as reviewed"),
    409: errorResponse(
      "`conflict`: undoing an approval would put the folder where something now stands (`details.path`)",
    ),
  },
});

export const listUploadsRoute = apiRoute({
  operationId: "listPortalUploads",
  method: "get",
  path: "/workspaces/{workspaceId}/portal-uploads",
  tags,
  scopes: read,
  extension: true,
  summary: "List portal uploads across portals (the review queue)",
  description:
    "Newest first, `limit` per page (default 100, up to 500; `cursor` = the previous page's `next`), with `total` matching. Filters: `portalId`, `status` (one status, or `awaiting`: received or pending), `q` (1 to 200 characters found in the sender's name or address or the portal's title, any case, taken literally).",
  request: { params: workspaceParams, query: listPortalUploadsQuerySchema },
  responses: { 200: json(portalUploadsPageSchema, "A page of uploads") },
});

export const bulkReviewRoute = apiRoute({
  operationId: "reviewPortalUploads",
  method: "post",
  path: "/workspaces/{workspaceId}/portal-uploads/review",
  tags,
  scopes: write,
  extension: true,
  summary: "Approve, reject or hold several portal uploads at once",
  description:
    "One `decision` and `note` for 1 to 100 `uploadIds` (one named twice is decided once), in one transaction; each upload is decided as `reviewPortalUpload` decides one (its event, an approved folder's move job). 200 with `decided` (the uploads as decided, in the order asked) and `refused` (each upload that could not be: `not_found`, `not_received`); nothing else changes for those.",
  request: { params: workspaceParams, body: jsonBody(bulkReviewBodySchema) },
  responses: { 200: json(bulkReviewResultSchema, "What was decided and what was not") },
});

export const listUploadNotesRoute = apiRoute({
  operationId: "listPortalUploadNotes",
  method: "get",
  path: "/workspaces/{workspaceId}/portal-uploads/{uploadId}/notes",
  tags,
  scopes: read,
  extension: true,
  summary: "Read the review notes on a portal upload",
  description:
    "Oldest first, all of them (500 at most), each with its author and, when it points at a time or a PDF page of one of the upload's files, its `anchor` (the file's path as the upload lists it now). Members only: the sender never sees them. 404 for an unknown upload.",
  request: { params: queueUploadParams },
  responses: { 200: json(uploadNotesSchema, "The notes") },
});

export const addUploadNoteRoute = apiRoute({
  operationId: "addPortalUploadNote",
  method: "post",
  path: "/workspaces/{workspaceId}/portal-uploads/{uploadId}/notes",
  tags,
  scopes: write,
  extension: true,
  summary: "Write a review note on a portal upload, at a time or page of one of its files",
  description:
    "`body` 1 to 2000 characters; the key's member is the author. An `anchor` points it at a time (`timeMs`) or a PDF page (`page`), exactly one (`time_or_page`), of one of the upload's files (`not_in_upload`); a time only in audio or video and a page only in a PDF (`wrong_kind`), a time not past the file's duration when the media probe found it (`past_end`). An upload keeps at most 500 notes: 409 `conflict` (`details.reason` `too_many_notes`). No event.",
  request: { params: queueUploadParams, body: jsonBody(createUploadNoteBodySchema) },
  responses: {
    201: json(uploadNoteSchema, "The note"),
    409: errorResponse("`conflict`: the upload has 500 notes already (`too_many_notes`)"),
  },
});

export const deleteUploadNoteRoute = apiRoute({
  operationId: "deletePortalUploadNote",
  method: "delete",
  path: "/workspaces/{workspaceId}/portal-uploads/{uploadId}/notes/{noteId}",
  tags,
  scopes: write,
  extension: true,
  summary: "Delete one of your review notes",
  description:
    "Only its author (the same member; for a key without a member, the same key): 403 `forbidden` (`details.reason` `not_the_author`) otherwise. 204; 404 for an unknown note.",
  request: { params: noteParams },
  responses: { 204: { description: "Deleted; no body" } },
});
