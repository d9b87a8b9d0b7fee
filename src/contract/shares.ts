import { z } from "zod";
import {
  count,
  dateTime,
  idSchema,
  queryBoolean,
  queryInteger,
  requiredPathSchema,
  trimmedText,
} from "./common";
import { outboxMessageSchema } from "./mail";
import { mediaAnchorSchema } from "./media";
import { deliveryStates } from "./receipt-verdict";
import {
  EMAIL_MAX,
  SHARE_COMMENT_MAX,
  SHARE_COMMENTS_PAGE_DEFAULT,
  SHARE_COMMENTS_PAGE_MAX,
  SHARE_EXPIRES_DAYS_DEFAULT,
  SHARE_EXPIRES_DAYS_MAX,
  SHARE_MAX_DOWNLOADS_MAX,
  SHARE_MESSAGE_MAX,
  SHARE_PASSWORD_MAX,
  SHARE_PASSWORD_MIN,
  SHARE_PATHS_MAX,
  SHARE_RECIPIENTS_MAX,
  SHARE_TITLE_MAX,
  SHARES_BULK_MAX,
  SHARES_LIST_DEFAULT,
  SHARES_LIST_MAX,
  shareStatuses,
} from "./rules";

export {
  csvField,
  EMAIL_MAX,
  SHARE_COMMENT_MAX,
  SHARE_EXPIRES_DAYS_DEFAULT,
  SHARE_EXPIRES_DAYS_MAX,
  SHARE_FILES_MAX,
  SHARE_LINK_PREFIX,
  SHARE_MAX_DOWNLOADS_MAX,
  SHARE_MESSAGE_MAX,
  SHARE_PASSWORD_MAX,
  SHARE_PASSWORD_MIN,
  SHARE_PATHS_MAX,
  SHARE_RECIPIENTS_MAX,
  SHARE_TITLE_MAX,
  SHARES_BULK_MAX,
  type ShareStatus,
  shareStatuses,
  shareStatusOf,
} from "./rules";

export const shareStatusSchema = z.enum(shareStatuses).meta({ id: "ShareStatus" });

/** An address as the service keeps it: trimmed and lowercased, so one person is one recipient. */
export const emailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX)
  .toLowerCase()
  .pipe(z.email({ error: "Expected an email address" }))
  .meta({
    format: "email",
    // What zod's z.email() checks; a client held to `format: email` alone could send more.
    pattern: z.regexes.email.source,
    description: "An email address; kept trimmed and in lowercase",
  });

const title = trimmedText(SHARE_TITLE_MAX);
const message = z.string().max(SHARE_MESSAGE_MAX);
const expiresInDays = z.int().min(1).max(SHARE_EXPIRES_DAYS_MAX);
const maxDownloads = z.int().min(1).max(SHARE_MAX_DOWNLOADS_MAX);

export const createShareBodySchema = z
  .object({
    paths: z
      .array(requiredPathSchema)
      .min(1)
      .max(SHARE_PATHS_MAX)
      .meta({ description: "Files or folders; a folder shares every file inside it" }),
    title: title
      .optional()
      .meta({ description: "Shown to recipients; default: the first item's name" }),
    message: message
      .optional()
      .meta({ description: "Shown on the recipient page and in the mail" }),
    expiresInDays: expiresInDays.default(SHARE_EXPIRES_DAYS_DEFAULT),
    maxDownloads: maxDownloads
      .optional()
      .meta({ description: "Completed downloads allowed in all; omitted: no limit" }),
    password: z.string().min(SHARE_PASSWORD_MIN).max(SHARE_PASSWORD_MAX).optional().meta({
      description: "Asked on the recipient page; stored as a scrypt hash, never returned",
    }),
    recipients: z.array(emailSchema).max(SHARE_RECIPIENTS_MAX).default([]).meta({
      description: "Each gets a personal link by mail; duplicates (any case) count once",
    }),
    notify: z.boolean().default(true).meta({
      description: "Extension. false: make the personal links without mailing them",
    }),
    openLink: z.boolean().optional().meta({
      description:
        "Extension. Also make a link for anyone (its views and downloads are anonymous). Default: false with recipients (personal links only), true without. false without recipients: 400 `no_link`",
    }),
  })
  .meta({ id: "CreateShareBody" });
export type CreateShareBody = z.input<typeof createShareBodySchema>;

export const shareItemSchema = z
  .object({
    path: z.string(),
    type: z.enum(["file", "folder"]),
    sizeBytes: count().meta({ description: "The item's bytes when shared (a folder: its files')" }),
    fileCount: count(),
  })
  .meta({ id: "ShareItem" });
export type ShareItem = z.infer<typeof shareItemSchema>;

export const shareRecipientSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    sentAt: dateTime().nullable().meta({ description: "When a mail with the link last left" }),
    views: count(),
    firstViewedAt: dateTime().nullable(),
    lastViewedAt: dateTime().nullable(),
    downloads: count().meta({ description: "Completed downloads through this person's link" }),
    lastDownloadAt: dateTime().nullable(),
    filesDownloaded: count().meta({ description: "Distinct files of the share they completed" }),
  })
  .meta({ id: "ShareRecipient" });
export type ShareRecipient = z.infer<typeof shareRecipientSchema>;

export const shareSchema = z
  .looseObject({
    id: z.string(),
    title: z.string(),
    message: z.string().nullable(),
    status: shareStatusSchema,
    url: z.string().nullable().meta({
      description:
        "The open link for anyone (views and downloads count as anonymous); null when the share has none (`openLink`): only personal links open it",
    }),
    items: z.array(shareItemSchema),
    fileCount: count(),
    totalBytes: count(),
    expiresAt: dateTime(),
    maxDownloads: count().nullable(),
    downloadCount: count().meta({ description: "Completed downloads, all links together" }),
    viewCount: count(),
    passwordProtected: z.boolean(),
    recipients: z.array(shareRecipientSchema),
    commentCount: count(),
    createdAt: dateTime(),
    updatedAt: dateTime(),
    revokedAt: dateTime().nullable(),
    expiredAt: dateTime().nullable().meta({ description: "When `share.expired` was recorded" }),
    createdBy: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
    verdict: z.enum(deliveryStates).meta({
      description:
        "Does each recipient now hold an intact copy of every file? (the receipt's `verdict`; contract/receipt-verdict.ts)",
    }),
  })
  .meta({ id: "Share" });
export type Share = z.infer<typeof shareSchema>;

export const createdShareSchema = shareSchema
  .extend({
    recipientLinks: z
      .array(z.object({ email: z.string(), url: z.string() }))
      .meta({ description: "Each recipient's personal link: shown here only (and mailed)" }),
  })
  .meta({ id: "CreatedShare" });
export type CreatedShare = z.infer<typeof createdShareSchema>;

export const listSharesQuerySchema = z.object({
  status: shareStatusSchema.optional(),
  expiringWithinDays: queryInteger(1, SHARE_EXPIRES_DAYS_MAX)
    .optional()
    .meta({ description: "Only active shares that expire within this many days" }),
  neverOpened: queryBoolean
    .optional()
    .meta({ description: "true: only shares nobody has viewed or downloaded yet" }),
  recipient: emailSchema.optional().meta({ description: "Only shares sent to this address" }),
  verdict: z
    .enum(deliveryStates)
    .optional()
    .meta({ description: "Only shares whose delivery verdict is this" }),
  cursor: idSchema.optional().meta({ description: "The previous page's `next`" }),
  limit: queryInteger(1, SHARES_LIST_MAX).default(SHARES_LIST_DEFAULT),
});
export type ListSharesQuery = z.input<typeof listSharesQuerySchema>;

export const sharesPageSchema = z
  .object({
    items: z.array(shareSchema),
    next: idSchema
      .nullable()
      .meta({ description: "Pass as `cursor` for the next page; null at the end" }),
  })
  .meta({ id: "SharesPage" });
export type SharesPage = z.infer<typeof sharesPageSchema>;

/** JSON Schema for "these members are all there", for a `not` (which names them itself). */
const present = (...names: string[]) => ({
  properties: Object.fromEntries(names.map((n) => [n, {}])),
  required: names,
});

export const updateShareBodySchema = z
  .object({
    expiresInDays: expiresInDays
      .optional()
      .meta({ description: "The new expiry, counted from now" }),
    expiresAt: dateTime().optional().meta({
      description:
        "The new expiry as a time (future, at most 365 days ahead); not with expiresInDays",
    }),
    maxDownloads: maxDownloads.nullable().optional().meta({ description: "null: no limit" }),
  })
  .refine(
    (b) =>
      b.expiresInDays !== undefined || b.expiresAt !== undefined || b.maxDownloads !== undefined,
    {
      message: "Give expiresInDays, expiresAt or maxDownloads",
    },
  )
  .refine((b) => b.expiresInDays === undefined || b.expiresAt === undefined, {
    message: "Give expiresInDays or expiresAt, not both",
    path: ["expiresAt"],
  })
  .meta({
    id: "UpdateShareBody",
    description: "At least one of expiresInDays, expiresAt, maxDownloads; not both expiries",
    anyOf: [
      { required: ["expiresInDays"] },
      { required: ["expiresAt"] },
      { required: ["maxDownloads"] },
    ],
    not: present("expiresInDays", "expiresAt"),
  });
export type UpdateShareBody = z.input<typeof updateShareBodySchema>;

export const bulkShareActions = ["extend", "revoke"] as const;

export const bulkSharesBodySchema = z
  .object({
    action: z.enum(bulkShareActions),
    shareIds: z
      .array(idSchema)
      .min(1)
      .max(SHARES_BULK_MAX)
      .meta({ description: `1 to ${SHARES_BULK_MAX} share ids; a repeated id counts once` }),
    expiresInDays: expiresInDays
      .optional()
      .meta({ description: "extend: the new expiry, counted from now" }),
    expiresAt: dateTime()
      .optional()
      .meta({ description: "extend: the new expiry as a time (future, at most 365 days ahead)" }),
  })
  .refine(
    (b) => b.action !== "extend" || (b.expiresInDays === undefined) !== (b.expiresAt === undefined),
    { message: "extend needs expiresInDays or expiresAt (one of them)", path: ["expiresInDays"] },
  )
  .refine(
    (b) => b.action !== "revoke" || (b.expiresInDays === undefined && b.expiresAt === undefined),
    { message: "revoke takes no expiry", path: ["expiresInDays"] },
  )
  .meta({
    id: "BulkSharesBody",
    description: "extend takes exactly one of expiresInDays and expiresAt; revoke takes neither",
    oneOf: [
      {
        properties: { action: { const: "extend" } },
        required: ["expiresInDays"],
        not: present("expiresAt"),
      },
      {
        properties: { action: { const: "extend" } },
        required: ["expiresAt"],
        not: present("expiresInDays"),
      },
      {
        properties: { action: { const: "revoke" } },
        not: { anyOf: [present("expiresInDays"), present("expiresAt")] },
      },
    ],
  });
export type BulkSharesBody = z.input<typeof bulkSharesBodySchema>;

export const bulkSharesResultSchema = z
  .object({
    done: z.array(idSchema).meta({ description: "The shares extended or revoked" }),
    failed: z
      .array(
        z.object({
          shareId: idSchema,
          code: z.string().meta({ description: "e.g. not_found, revoked, in_the_past" }),
          message: z.string(),
        }),
      )
      .meta({
        description: "The shares left as they were, each with the single operation's refusal",
      }),
  })
  .meta({ id: "BulkSharesResult" });
export type BulkSharesResult = z.infer<typeof bulkSharesResultSchema>;

export const commentAuthorSchema = z.object({
  kind: z.enum(["member", "recipient", "anonymous"]),
  name: z.string().nullable(),
  email: z.string().nullable(),
});

export const shareCommentSchema = z
  .object({
    id: z.string(),
    shareId: z.string(),
    parentId: z
      .string()
      .nullable()
      .meta({ description: "The comment this replies to (a thread's first)" }),
    body: z.string(),
    author: commentAuthorSchema,
    createdAt: dateTime(),
    anchor: mediaAnchorSchema.nullable().meta({
      description: "Additional: the time or PDF page of one of the share's files it is about",
    }),
  })
  .meta({ id: "ShareComment" });
export type ShareComment = z.infer<typeof shareCommentSchema>;

export const listCommentsQuerySchema = z.object({
  after: idSchema.optional().meta({ description: "The previous page's `next`" }),
  limit: queryInteger(1, SHARE_COMMENTS_PAGE_MAX).default(SHARE_COMMENTS_PAGE_DEFAULT),
});

export const commentsPageSchema = z
  .object({
    items: z.array(shareCommentSchema),
    next: idSchema.nullable().meta({ description: "Pass as `after` for the next page" }),
  })
  .meta({ id: "ShareCommentsPage" });

export const createCommentBodySchema = z
  .object({
    body: trimmedText(SHARE_COMMENT_MAX),
    parentId: idSchema.optional().meta({ description: "Reply to this comment" }),
    anchor: mediaAnchorSchema.nullable().optional().meta({
      description:
        "Additional: a time (`timeMs`) or a PDF page (`page`), exactly one, in one of the share's files",
    }),
  })
  .meta({ id: "CreateShareCommentBody" });
export type CreateCommentBody = z.input<typeof createCommentBodySchema>;

export const resendBodySchema = z
  .object({
    recipients: z
      .array(emailSchema)
      .min(1)
      .max(SHARE_RECIPIENTS_MAX)
      .optional()
      .meta({ description: "Some of the share's recipients; omitted: all of them" }),
  })
  .meta({ id: "ResendShareBody" });
export type ResendBody = z.input<typeof resendBodySchema>;

export const resendResponseSchema = z
  .object({ messages: z.array(outboxMessageSchema) })
  .meta({ id: "ResendShareResult" });
