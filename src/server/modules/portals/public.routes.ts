import {
  portalCancelBodySchema,
  portalConfirmationSchema,
  portalUnlockBodySchema,
  portalUnlockResponseSchema,
  portalUploadRefParamsSchema,
  publicPortalSchema,
  senderStatusSchema,
  slugParamsSchema,
  startedPortalUploadSchema,
  startPortalUploadBodySchema,
} from "@/contract/portal-public";
import { json, jsonBody, passwordSlowDownResponse, publicRoute } from "@/server/http/router";

/*
 * The portal page's API (docs/api-decisions.md, The portal page): no API key. The slug is in the
 * path; a portal with a password also wants the `Consign-Portal-Access` token `unlock` returns.
 * An upload's own requests (complete, cancel) carry its transfer's token as the bearer.
 */

const tags = ["Portal page"];

/** An upload's own requests: its transfer token (`transferSpec.token`) is the bearer. */
const withUploadToken = <R>(route: R) => ({ ...route, security: [{ uploadToken: [] }] });

const closed =
  " A portal that takes no uploads answers 403 `forbidden` with `details.reason` `portal_paused`, `portal_expired` or `portal_revoked`.";

export const getPublicPortalRoute = publicRoute(tags, {
  operationId: "getPublicPortal",
  method: "get",
  path: "/public/portals/{slug}",
  summary: "Open a portal's page",
  description:
    "What the portal page shows: title, message, the workspace's name, `state` (open, paused, expired, revoked), whether a password is still needed, the fields to fill in, the rules every file must meet and the media spec. 404 (`details.reason` `unknown_portal`) for an unknown slug.",
  request: { params: slugParamsSchema },
  responses: { 200: json(publicPortalSchema, "The portal as a sender sees it") },
});

export const unlockPortalRoute = publicRoute(tags, {
  operationId: "unlockPortal",
  method: "post",
  path: "/public/portals/{slug}/unlock",
  summary: "Unlock a portal with its password",
  description: `A right password returns an access token (6 hours) for the \`Consign-Portal-Access\` header. A wrong one: 403 \`wrong_password\`; after 5 wrong tries from one address in 15 minutes each try must wait 1 s, 2 s, 4 s… (at most 15 minutes), and after 50 wrong tries from all addresses in 15 minutes every try waits until the oldest is 15 minutes old: 429 \`rate_limited\` with \`Retry-After\` and \`details.retryAfterSeconds\`, even for the right password (tries are counted before any is checked, so tries sent at once are held to the same numbers).${closed}`,
  request: { params: slugParamsSchema, body: jsonBody(portalUnlockBodySchema) },
  responses: {
    200: json(portalUnlockResponseSchema, "The access token"),
    429: passwordSlowDownResponse,
  },
});

export const startPortalUploadRoute = publicRoute(tags, {
  operationId: "startPortalUpload",
  method: "post",
  path: "/public/portals/{slug}/uploads",
  summary: "Start an upload through a portal",
  description: `Checks the sender (\`email_required\`, each required field: \`required\`, \`unknown_field\`) and every file against the portal's rules (\`extension_not_allowed\`, \`name_not_allowed\`, \`too_large\`, \`too_many_files\`, \`duplicate\`, \`file_in_the_way\` for a path inside another listed file; each issue names its file) before any byte is sent, then creates the upload's own folder under the target and a send transfer (client \`portal\`) for exactly these files. Send each with tus to \`transferSpec.node.uploads\`, metadata \`path\` = \`destinationRoot\`/its relative path; the node checks the rules again. A password-protected portal wants \`Consign-Portal-Access\` (\`password_required\`).${closed}`,
  request: { params: slugParamsSchema, body: jsonBody(startPortalUploadBodySchema) },
  responses: { 201: json(startedPortalUploadSchema, "The upload and its transfer spec") },
});

export const completePortalUploadRoute = withUploadToken(
  publicRoute(tags, {
    operationId: "completePortalUpload",
    method: "post",
    path: "/public/portals/{slug}/uploads/{uploadId}/complete",
    summary: "Report a portal upload landed",
    description:
      "With the upload's transfer token as the bearer. The node must have committed every file (`not_committed`: retry shortly). The upload becomes `received`, `portal.upload.completed` is recorded, the media spec check is queued, the sender (when they gave an address) is mailed a confirmation and, if the portal asks, the workspace's admins a notice. Answers the confirmation the sender keeps: a reference and each file with its SHA-256. Asking again answers the same confirmation and records nothing twice; a cancelled upload: `cancelled`. A portal that closed before the upload landed answers 403 `forbidden` with `details.reason` `portal_paused` (report again once it is active), `portal_expired` or `portal_revoked`.",
    request: { params: portalUploadRefParamsSchema },
    responses: { 200: json(portalConfirmationSchema, "The confirmation") },
  }),
);

export const cancelPortalUploadRoute = withUploadToken(
  publicRoute(tags, {
    operationId: "cancelPortalUpload",
    method: "post",
    path: "/public/portals/{slug}/uploads/{uploadId}/cancel",
    summary: "Cancel a portal upload",
    description:
      "With the upload's transfer token as the bearer. The transfer is cancelled (the node drops what it staged; files already committed stay in the upload's folder) and the upload is `failed`. 204. After it landed: `already_reported`.",
    request: { params: portalUploadRefParamsSchema, body: jsonBody(portalCancelBodySchema) },
    responses: { 204: { description: "Cancelled; no body" } },
  }),
);

export const getPortalUploadStatusRoute = publicRoute(tags, {
  operationId: "getPortalUploadStatus",
  method: "get",
  path: "/public/portals/{slug}/uploads/{uploadId}/status",
  summary: "Read a sender's upload status",
  description:
    "The sender's status page of one landed upload: `received`, `in_review` (a reviewer holds it), `approved` or `rejected`, with the note the reviewer chose to share with the sender (never the internal note). Opened by the token in the fragment of the confirmation's `statusUrl`, sent in `Consign-Upload-Status`; no key, no portal password, and it still opens after the portal closed. An unknown upload, one still arriving or failed, and a token that does not open it: 404 (`details.reason` `unknown_upload`).",
  request: { params: portalUploadRefParamsSchema },
  responses: { 200: json(senderStatusSchema, "What the sender sees") },
});
