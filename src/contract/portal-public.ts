import { z } from "zod";
import { count, dateTime, PATH_PATTERN, trimmedText } from "./common";
import {
  PORTAL_FIELD_VALUE_MAX,
  PORTAL_MAX_FILES_MAX,
  PORTAL_PASSWORD_MAX,
  PORTAL_SENDER_MESSAGE_MAX,
  PORTAL_SENDER_NAME_MAX,
  portalStates,
  senderStatuses,
} from "./portal-rules";
import { portalFieldSchema, portalSpecSchema } from "./portals";
import { emailSchema } from "./shares";
import { transferSpecSchema } from "./transfers";

/*
 * The sender's side of a portal (docs/api-decisions.md, The portal page): what the page at
 * `/p/{slug}` reads and writes, without an API key. The slug is the address; a portal with a
 * password also wants the access token `unlock` returns, in PORTAL_ACCESS_HEADER.
 */

export {
  PORTAL_ACCESS_HEADER,
  PORTAL_ACCESS_TTL_SECONDS,
  PORTAL_STATUS_HEADER,
} from "./portal-rules";

export const slugParamsSchema = z.object({
  slug: z
    .string()
    .min(1)
    .max(64)
    .meta({ param: { name: "slug", in: "path" }, description: "The portal's slug (`/p/{slug}`)" }),
});

export const publicPortalSchema = z
  .object({
    title: z.string(),
    message: z.string().nullable(),
    workspaceName: z.string(),
    state: z.enum(portalStates).meta({
      description: "open, or why no upload is taken: paused, expired, revoked",
    }),
    passwordRequired: z.boolean().meta({
      description: "true until the request carries a valid access token",
    }),
    requireEmail: z.boolean(),
    fields: z.array(portalFieldSchema),
    rules: z.object({
      allowedExtensions: z.array(z.string()),
      maxFiles: count().nullable(),
      namePattern: z.string().nullable(),
    }),
    maxBytesPerUpload: count().nullable(),
    spec: portalSpecSchema.nullable(),
    expiresAt: dateTime().nullable(),
    dueAt: dateTime().nullable(),
  })
  .meta({ id: "PublicPortal" });
export type PublicPortal = z.infer<typeof publicPortalSchema>;

export const portalUnlockBodySchema = z
  .object({ password: z.string().min(1).max(PORTAL_PASSWORD_MAX) })
  .meta({ id: "UnlockPortalBody" });

export const portalUnlockResponseSchema = z
  .object({
    accessToken: z.string().meta({ description: "Send it in `Consign-Portal-Access`" }),
    expiresAt: dateTime(),
  })
  .meta({ id: "PortalAccess" });

export const startPortalUploadBodySchema = z
  .object({
    senderEmail: emailSchema.optional().meta({ description: "Required when the portal says so" }),
    senderName: trimmedText(PORTAL_SENDER_NAME_MAX).optional(),
    message: z.string().max(PORTAL_SENDER_MESSAGE_MAX).optional(),
    fields: z
      .record(z.string().max(40), z.string().trim().max(PORTAL_FIELD_VALUE_MAX))
      .default({})
      .meta({ description: "Values of the portal's fields by key; required ones must be there" }),
    files: z
      .array(
        z.object({
          path: z.string().min(1).max(4096).meta({
            pattern: PATH_PATTERN,
            description: "Relative to the upload (`reel.mov`, `shots/a.mov`); the path rules hold",
          }),
          size: z.int().min(0),
        }),
      )
      .min(1)
      .max(PORTAL_MAX_FILES_MAX),
  })
  .meta({ id: "StartPortalUploadBody" });
export type StartPortalUploadBody = z.input<typeof startPortalUploadBodySchema>;

export const startedPortalUploadSchema = z
  .object({
    uploadId: z.string(),
    transferId: z.string(),
    transferSpec: transferSpecSchema.meta({
      description:
        "Send each file with tus to `node.uploads`, metadata `path` = `destinationRoot` + `/` + its relative path",
    }),
  })
  .meta({ id: "StartedPortalUpload" });
export type StartedPortalUpload = z.infer<typeof startedPortalUploadSchema>;

export const portalUploadRefParamsSchema = slugParamsSchema.extend({
  uploadId: z
    .string()
    .min(1)
    .max(64)
    .meta({ param: { name: "uploadId", in: "path" } }),
});

export const portalConfirmationSchema = z
  .object({
    uploadId: z.string(),
    reference: z.string().meta({ description: "What the sender quotes: the upload's short code" }),
    portalTitle: z.string(),
    workspaceName: z.string(),
    files: z.array(z.object({ path: z.string(), size: count(), sha256: z.string() })),
    fileCount: count(),
    bytes: count(),
    completedAt: dateTime(),
    senderEmail: z.string().nullable(),
    statusUrl: z.string().meta({
      description:
        "Extension: the sender's status page of this upload; its fragment is the token that opens it (no key)",
    }),
  })
  .meta({ id: "PortalUploadConfirmation" });
export type PortalConfirmation = z.infer<typeof portalConfirmationSchema>;

export const senderStatusSchema = z
  .object({
    uploadId: z.string(),
    reference: z.string(),
    portalTitle: z.string(),
    workspaceName: z.string(),
    status: z.enum(senderStatuses).meta({
      description:
        "received (waiting for review), in_review (held by a reviewer), approved, rejected",
    }),
    noteToSender: z
      .string()
      .nullable()
      .meta({ description: "What the reviewer chose to tell the sender" }),
    decidedAt: dateTime().nullable().meta({ description: "When it was approved or rejected" }),
    receivedAt: dateTime(),
    fileCount: count(),
    bytes: count(),
  })
  .meta({ id: "PortalUploadSenderStatus" });
export type SenderStatusPage = z.infer<typeof senderStatusSchema>;

export const portalCancelBodySchema = z
  .object({ reason: z.string().max(500).optional() })
  .meta({ id: "CancelPortalUploadBody" });
