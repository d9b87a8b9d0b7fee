import { z } from "zod";
import { count, dateTime, optionalPathSchema, requiredPathSchema, trimmedText } from "./common";
import {
  type Bounds,
  portalBounds as bounds,
  NOTIFY_SENDER_DEFAULT,
  PHONE_PATTERN,
  PORTAL_EXTENSION_PATTERN,
  PORTAL_FIELD_KEY_PATTERN,
  PORTAL_SPEC_VALUE_PATTERN,
  portalStatuses,
  portalUploadStatuses,
  specCheckStatuses,
} from "./portal-rules";
import { emailSchema } from "./shares";

/*
 * Upload portals (spec: Upload portal, Portal upload, Portals; docs/api-decisions.md, Portals).
 * Bounds from `portal-rules.ts`, which the console and the portal page check with too.
 */

export const portalStatusSchema = z.enum(portalStatuses).meta({ id: "PortalStatus" });
export const portalUploadStatusSchema = z.enum(portalUploadStatuses).meta({
  id: "PortalUploadStatus",
  description:
    "uploading (files arriving), received (all landed, to review), pending (held by a reviewer), approved, rejected, failed (the upload ended without landing)",
});

// No `min` of 0 (a string's length is never less): the OpenAPI document says nothing then.
const text = ({ min, max }: Bounds) => (min > 0 ? z.string().min(min) : z.string()).max(max);
const whole = ({ min, max }: Bounds) => z.int().min(min).max(max);
const title = trimmedText(bounds.title.max);
const message = text(bounds.message);
const password = text(bounds.password);
const maxBytesPerUpload = whole(bounds.maxBytesPerUpload);
const expiresInDays = whole(bounds.expiresInDays);
const projectId = text(bounds.projectId);

export const portalFieldSchema = z
  .object({
    key: z.string().regex(PORTAL_FIELD_KEY_PATTERN).meta({
      description: "How the value is stored: a lowercase letter, then letters, digits, _ (≤ 40)",
    }),
    label: trimmedText(bounds.fieldLabel.max),
    required: z.boolean().default(false),
  })
  .meta({ id: "PortalField" });
export type PortalField = z.output<typeof portalFieldSchema>;

export const portalRulesSchema = z
  .object({
    allowedExtensions: z
      .array(
        z
          .string()
          .trim()
          .transform((e) => e.replace(/^\./, "").toLowerCase())
          .pipe(z.string().regex(PORTAL_EXTENSION_PATTERN))
          // The input the service takes: spaces around and a leading dot allowed, any case.
          .meta({ pattern: String.raw`^\s*\.?[A-Za-z0-9]{1,16}\s*$` }),
      )
      .max(bounds.allowedExtensions.max)
      .default([])
      .transform((list) => [...new Set(list)])
      .meta({ description: "Accepted extensions (`mov` or `.MOV`); empty: any" }),
    maxFiles: whole(bounds.maxFiles).nullable().default(null),
    namePattern: text(bounds.namePattern).nullable().default(null).meta({
      description:
        "An RE2 regular expression each file's name (not its folders) must match as a whole",
    }),
  })
  .meta({ id: "PortalRules" });

const specValues = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.string().regex(PORTAL_SPEC_VALUE_PATTERN))
      // The input the service takes: spaces around and any case allowed.
      .meta({ pattern: String.raw`^\s*[A-Za-z0-9_]{1,32}\s*$` }),
  )
  .max(bounds.specValues.max)
  .default([]);

export const portalSpecSchema = z
  .object({
    name: trimmedText(bounds.specName.max).meta({
      description: "What reviewers and senders call it, e.g. `ProRes 422 HQ in MOV`",
    }),
    containers: specValues.meta({
      description:
        "Accepted containers as ffprobe names them (`mov`, `mp4`, `mxf`, `matroska`); empty: any",
    }),
    videoCodecs: specValues.meta({
      description: "Accepted video codecs as ffprobe names them (`prores`, `h264`); empty: any",
    }),
  })
  .meta({ id: "PortalSpec" });
export type PortalSpec = z.output<typeof portalSpecSchema>;

const fieldsList = z
  .array(portalFieldSchema)
  .max(bounds.fields.max)
  .refine((fields) => new Set(fields.map((f) => f.key)).size === fields.length, {
    message: "Each field needs its own key",
  })
  .meta({ description: "Each field needs a key of its own (no two alike)" });

export const notifySenderSchema = z.object({ approved: z.boolean(), rejected: z.boolean() }).meta({
  id: "PortalNotifySender",
  description:
    "Extension. Which decisions mail the sender (when they gave an address): the decision, the note to the sender and their status page's link",
});

export const createPortalBodySchema = z
  .object({
    title,
    message: message.optional(),
    targetPath: optionalPathSchema.meta({
      description: "The folder uploads land under, each in a folder of its own",
    }),
    requireEmail: z.boolean().default(false),
    password: password.optional().meta({
      description: "Asked on the portal page; stored as a scrypt hash, never returned",
    }),
    maxBytesPerUpload: maxBytesPerUpload.optional(),
    expiresInDays: expiresInDays.optional().meta({ description: "Omitted: it does not expire" }),
    notifyOnUpload: z.boolean().default(false).meta({
      description: "Mail the workspace's admins when an upload lands",
    }),
    projectId: projectId.nullable().optional(),
    dueAt: dateTime().optional().meta({ description: "Shown to senders; nothing closes then" }),
    inviteEmails: z.array(emailSchema).max(bounds.invites.max).default([]).meta({
      description: "Each gets the portal's link by mail (outbox); duplicates count once",
    }),
    invitePhones: z
      .array(z.string().regex(PHONE_PATTERN))
      .max(bounds.invites.max)
      .default([])
      .meta({
        description:
          "E.164 numbers. No SMS provider is configured in this service: each is listed in the outbox, not sent",
      }),
    fields: fieldsList.default([]),
    rules: portalRulesSchema.default({ allowedExtensions: [], maxFiles: null, namePattern: null }),
    spec: portalSpecSchema.nullable().optional().meta({
      description: "Media every uploaded video must meet; checked with ffprobe once it lands",
    }),
    approvedPath: requiredPathSchema.nullable().optional().meta({
      description:
        "Extension. Approving an upload moves its folder into this folder (a move job); null or omitted: it stays where it landed",
    }),
    notifySender: notifySenderSchema.default({ ...NOTIFY_SENDER_DEFAULT }),
  })
  .meta({ id: "CreatePortalBody" });
export type CreatePortalBody = z.input<typeof createPortalBodySchema>;

export const updatePortalBodySchema = z
  .object({
    projectId: projectId.nullable().optional(),
    title: title.optional(),
    message: message.nullable().optional(),
    status: z.enum(["active", "paused"]).optional(),
    requireEmail: z.boolean().optional(),
    password: password.nullable().optional().meta({ description: "null: no password any more" }),
    maxBytesPerUpload: maxBytesPerUpload.nullable().optional(),
    expiresInDays: expiresInDays
      .nullable()
      .optional()
      .meta({ description: "Counted from now; null: it does not expire" }),
    notifyOnUpload: z.boolean().optional(),
    dueAt: dateTime().nullable().optional().meta({ description: "Extension" }),
    fields: fieldsList.optional().meta({ description: "Extension: replaces the fields" }),
    rules: portalRulesSchema.optional().meta({ description: "Extension: replaces the rules" }),
    spec: portalSpecSchema.nullable().optional().meta({ description: "Extension" }),
    approvedPath: requiredPathSchema.nullable().optional().meta({ description: "Extension" }),
    notifySender: notifySenderSchema.optional(),
  })
  .meta({ id: "UpdatePortalBody" });
export type UpdatePortalBody = z.input<typeof updatePortalBodySchema>;

export const portalSchema = z
  .looseObject({
    id: z.string(),
    slug: z.string(),
    url: z.string(),
    title: z.string(),
    message: z.string().nullable(),
    targetPath: z.string(),
    requireEmail: z.boolean(),
    hasPassword: z.boolean(),
    maxBytesPerUpload: count().nullable(),
    expiresAt: dateTime().nullable(),
    notifyOnUpload: z.boolean(),
    status: portalStatusSchema,
    uploadCount: count().meta({ description: "Uploads whose files all landed" }),
    bytesReceived: count(),
    createdAt: dateTime(),
    // Extensions.
    expired: z.boolean().meta({ description: "expiresAt has passed: the page takes no upload" }),
    awaitingReview: count().meta({ description: "Uploads received or pending" }),
    projectId: z.string().nullable(),
    dueAt: dateTime().nullable(),
    fields: z.array(portalFieldSchema),
    rules: z.object({
      allowedExtensions: z.array(z.string()),
      maxFiles: count().nullable(),
      namePattern: z.string().nullable(),
    }),
    spec: portalSpecSchema.nullable(),
    approvedPath: z.string().nullable(),
    notifySender: notifySenderSchema,
    invites: z.object({ emails: z.array(z.string()), phones: z.array(z.string()) }),
    updatedAt: dateTime(),
    revokedAt: dateTime().nullable(),
    lastUploadAt: dateTime().nullable(),
  })
  .meta({ id: "Portal" });
export type Portal = z.infer<typeof portalSchema>;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

export const mediaInfoSchema = z
  .object({
    container: z.string().nullable().meta({ description: "As ffprobe names it (`mov`, `mp4`)" }),
    videoCodecs: z.array(z.string()),
    audioCodecs: z.array(z.string()),
    durationMs: count().nullable(),
    width: count().nullable(),
    height: count().nullable(),
  })
  .meta({ id: "PortalMediaInfo" });
export type MediaInfo = z.infer<typeof mediaInfoSchema>;

export const portalUploadFileSchema = z
  .object({
    path: z.string().meta({ description: "Workspace path of the file as it landed" }),
    size: count(),
    mime: z.string().nullable(),
    // Extensions.
    senderSha256: sha256Hex.nullable().meta({
      description:
        "The SHA-256 the sender's page computed and declared; null: none declared (or landed before it was kept)",
    }),
    sha256: sha256Hex.nullable().meta({
      description: "The SHA-256 the node computed of the bytes as they landed",
    }),
    sha256Matches: z.boolean().nullable().meta({
      description: "The landed bytes' SHA-256 is the sender's; null: one of the two is unknown",
    }),
    media: mediaInfoSchema.nullable().meta({
      description:
        "What ffprobe found in an audio or video file once it landed; null: not media, not probed yet, or unreadable",
    }),
  })
  .meta({ id: "PortalUploadFile" });
export type PortalUploadFile = z.infer<typeof portalUploadFileSchema>;

export const specCheckSchema = z
  .object({
    status: z.enum(specCheckStatuses).meta({
      description: "not_required (the portal has no spec), checking, passed, failed",
    }),
    checkedAt: dateTime().nullable(),
    problems: z.array(z.object({ path: z.string(), message: z.string() })),
    files: z
      .array(
        z.object({
          path: z.string(),
          container: z.string().nullable(),
          videoCodecs: z.array(z.string()),
          durationMs: count().nullable(),
          width: count().nullable(),
          height: count().nullable(),
        }),
      )
      .meta({ description: "What ffprobe found in each media file" }),
  })
  .meta({ id: "PortalSpecCheck" });
export type SpecCheck = z.infer<typeof specCheckSchema>;

const member = z.object({ id: z.string(), name: z.string(), email: z.string() });

export const portalUploadSchema = z
  .looseObject({
    id: z.string(),
    senderEmail: z.string().nullable(),
    senderName: z.string().nullable(),
    message: z.string().nullable(),
    folderPath: z.string(),
    fileCount: count().nullable(),
    bytesTotal: count().nullable(),
    bytesDone: count(),
    status: portalUploadStatusSchema,
    createdAt: dateTime(),
    completedAt: dateTime().nullable(),
    // Extensions.
    portalId: z.string(),
    portalTitle: z.string(),
    transferId: z.string().nullable(),
    fields: z.record(z.string(), z.string()).meta({ description: "The custom fields' values" }),
    files: z.array(portalUploadFileSchema).meta({ description: "The first 12 files" }),
    specCheck: specCheckSchema,
    reviewNote: z.string().nullable().meta({ description: "The internal note: members only" }),
    noteToSender: z
      .string()
      .nullable()
      .meta({ description: "Extension: the note the sender's status page and mail show" }),
    reviewedAt: dateTime().nullable(),
    reviewedBy: member.nullable(),
  })
  .meta({ id: "PortalUpload" });
export type PortalUpload = z.infer<typeof portalUploadSchema>;

export const portalDetailSchema = portalSchema
  .extend({
    uploads: z.array(portalUploadSchema).meta({ description: "Newest first, 200 at most" }),
  })
  .meta({ id: "PortalDetail" });
export type PortalDetail = z.infer<typeof portalDetailSchema>;
