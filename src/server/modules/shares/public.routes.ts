import { z } from "@hono/zod-openapi";
import { proxyStatusSchema } from "@/contract/media";
import {
  completeDownloadBodySchema,
  completedDownloadSchema,
  downloadParamsSchema,
  linkParamsSchema,
  previewQuerySchema,
  publicCommentBodySchema,
  publicDownloadBodySchema,
  publicDownloadSchema,
  publicShareSchema,
  thumbnailQuerySchema,
  unlockBodySchema,
  unlockResponseSchema,
} from "@/contract/share-public";
import { commentsPageSchema, listCommentsQuerySchema, shareCommentSchema } from "@/contract/shares";
import { json, jsonBody, passwordSlowDownResponse, publicRoute } from "@/server/http/router";

/*
 * The recipient page's API (docs/api-decisions.md, The recipient page): no API key. The link's
 * token is in the path; a password-protected share also wants the `Consign-Share-Access` token
 * that `unlock` returns. Refusals for a share that is not open: 403 `forbidden` with
 * `details.reason` `share_expired`, `share_revoked` or `share_exhausted`.
 */

const tags = ["Recipient"];

const access =
  " A password-protected share answers 403 `forbidden` (`details.reason` `password_required`) without a valid `Consign-Share-Access` header.";

export const getPublicShareRoute = publicRoute(tags, {
  operationId: "getPublicShare",
  method: "get",
  path: "/public/shares/{token}",
  summary: "Open a share link",
  description:
    "What the recipient page shows: title, message, status, the workspace's name and, once unlocked (or when there is no password), the files as they were shared. A request without an access header counts as a view (of the link's recipient, or anonymous). 404 for an unknown link; 403 with `details.reason` for an expired, revoked or exhausted share.",
  request: { params: linkParamsSchema },
  responses: { 200: json(publicShareSchema, "The share as its recipient sees it") },
});

export const unlockShareRoute = publicRoute(tags, {
  operationId: "unlockShare",
  method: "post",
  path: "/public/shares/{token}/unlock",
  summary: "Unlock a share with its password",
  description:
    "A right password returns an access token (2 hours) for the `Consign-Share-Access` header. A wrong one: 403 `wrong_password` (logged on the receipt); after 5 wrong tries from one address in 15 minutes each try must wait 1 s, 2 s, 4 s… (at most 15 minutes), and after 50 wrong tries from all addresses in 15 minutes every try waits until the oldest is 15 minutes old: 429 `rate_limited` with `Retry-After` and `details.retryAfterSeconds`, even for the right password (tries are counted before any is checked, so tries sent at once are held to the same numbers).",
  request: { params: linkParamsSchema, body: jsonBody(unlockBodySchema) },
  responses: {
    200: json(unlockResponseSchema, "The access token"),
    429: passwordSlowDownResponse,
  },
});

export const startDownloadRoute = publicRoute(tags, {
  operationId: "startShareDownload",
  method: "post",
  path: "/public/shares/{token}/downloads",
  summary: "Start a download of some of a share's files",
  description: `Creates a receive transfer (client \`share\`) of the files named (each must be one of the share's: \`not_in_share\`) and returns its spec: GET \`transferSpec.node.files?path=\` with the spec's token serves each file's bytes as shared, with Range, while the share stays open.${access}`,
  request: { params: linkParamsSchema, body: jsonBody(publicDownloadBodySchema) },
  responses: { 201: json(publicDownloadSchema, "The transfer spec for the download") },
});

export const completeDownloadRoute = publicRoute(tags, {
  operationId: "completeShareDownload",
  method: "post",
  path: "/public/shares/{token}/downloads/{transferId}/complete",
  summary: "Report a finished download with the hashes computed",
  description: `The engine reports each file's SHA-256 computed over the bytes it received; the download is verified only when every one matches the share's. Completes the transfer (the node must have served the files' bytes: \`not_served\`), counts toward \`maxDownloads\` and records \`share.downloaded\`. Reporting twice: 400 \`validation_failed\` (issue code \`already_reported\`).${access}`,
  request: { params: downloadParamsSchema, body: jsonBody(completeDownloadBodySchema) },
  responses: { 200: json(completedDownloadSchema, "The download as recorded") },
});

export const listPublicCommentsRoute = publicRoute(tags, {
  operationId: "listPublicShareComments",
  method: "get",
  path: "/public/shares/{token}/comments",
  summary: "Read a share's comments",
  description: `Oldest first, as \`listShareComments\`.${access}`,
  request: { params: linkParamsSchema, query: listCommentsQuerySchema },
  responses: { 200: json(commentsPageSchema, "A page of comments") },
});

export const addPublicCommentRoute = publicRoute(tags, {
  operationId: "addPublicShareComment",
  method: "post",
  path: "/public/shares/{token}/comments",
  summary: "Comment on a share as its recipient",
  description: `Through a personal link the recipient's address is the author's (kind \`recipient\`); through the plain link the author is \`anonymous\`, with the \`name\` given if any. An \`anchor\` is checked as \`addShareComment\` checks it.${access}`,
  request: { params: linkParamsSchema, body: jsonBody(publicCommentBodySchema) },
  responses: { 201: json(shareCommentSchema, "The comment") },
});

export const shareThumbnailRoute = publicRoute(tags, {
  operationId: "getShareThumbnail",
  method: "get",
  path: "/public/shares/{token}/thumbnail",
  summary: "Thumbnail of one of a share's images",
  description: `A JPEG at most 320 pixels on its longer side of the image as shared (PNG, JPEG, WebP, GIF, TIFF; other files, images over 8192 × 8192 pixels and images that cannot be decoded: \`no_preview\`; not in the share: \`not_in_share\`). Rendered once per image content and kept. The access token may come as \`?access=\` (an \`<img>\` sends no header).${access}`,
  request: { params: linkParamsSchema, query: thumbnailQuerySchema },
  responses: {
    200: {
      description: "The thumbnail",
      content: { "image/jpeg": { schema: z.string().meta({ format: "binary" }) } },
    },
  },
});

export const sharePreviewRoute = publicRoute(tags, {
  operationId: "getShareProxyStatus",
  method: "get",
  path: "/public/shares/{token}/proxies",
  summary: "Preview one of a share's files: its proxies, with signed addresses",
  description: `The proxy status (as \`getProxyStatus\`) of the file as it was shared (\`not_in_share\` otherwise), each ready proxy with a signed address the page's \`<video>\`, \`<audio>\` or \`<img>\` reads without a credential until \`urlExpiresAt\`. Renditions the file still lacks (a PDF's pages, which otherwise render on demand) are queued by asking, once per content. A preview is not a download: it counts toward nothing and is not on the receipt.${access}`,
  request: { params: linkParamsSchema, query: previewQuerySchema },
  responses: { 200: json(proxyStatusSchema, "The file's proxies") },
});
