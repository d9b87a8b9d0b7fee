import { z } from "zod";
import {
  ATTENTION_LIMIT_DEFAULT,
  ATTENTION_LIMIT_MAX,
  EXPIRING_WITHIN_HOURS,
  FAILED_JOBS_DAYS,
} from "./attention-rules";
import { count, dateTime, queryInteger } from "./common";

/* The needs-attention summary (extension): what waits for a member, across areas. */

export const attentionQuerySchema = z.object({
  limit: queryInteger(1, ATTENTION_LIMIT_MAX)
    .default(ATTENTION_LIMIT_DEFAULT)
    .meta({ description: "Entries listed per section (each section's `total` counts all)" }),
});
export type AttentionQuery = z.input<typeof attentionQuerySchema>;

const section = <T extends z.ZodType>(item: T, description: string) =>
  z
    .object({
      total: count().meta({ description: "Every entry of this kind, listed or not" }),
      items: z.array(item).meta({ description: "The first `limit` entries" }),
    })
    .optional()
    .meta({ description });

export const attentionUploadSchema = z.object({
  id: z.string(),
  portalId: z.string(),
  portalTitle: z.string(),
  senderEmail: z.string().nullable(),
  senderName: z.string().nullable(),
  status: z.enum(["received", "pending"]),
  specStatus: z.enum(["not_required", "checking", "passed", "failed"]),
  fileCount: count().nullable(),
  receivedAt: dateTime().meta({ description: "When the upload landed (or started, if unknown)" }),
});

export const attentionFailedDownloadSchema = z.object({
  downloadId: z.string(),
  shareId: z.string(),
  shareTitle: z.string(),
  recipient: z
    .string()
    .nullable()
    .meta({ description: "The recipient's address; null for the open link" }),
  failedFiles: count().meta({
    description: "Files whose SHA-256 did not match and no later verified download replaced",
  }),
  completedAt: dateTime(),
});

export const attentionExpiringShareSchema = z.object({
  shareId: z.string(),
  title: z.string(),
  expiresAt: dateTime(),
  recipients: count(),
});

export const attentionEndpointSchema = z.object({
  webhookId: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  failureCount: count(),
  lastDeliveryAt: dateTime().nullable(),
});

export const attentionJobSchema = z.object({
  jobId: z.string(),
  kind: z.enum(["move", "copy", "trash", "delete", "restore", "purge"]),
  status: z.enum(["failed", "completed"]).meta({
    description: "`completed`: a bulk job that ended with some items failed",
  }),
  failedItems: count().nullable().meta({ description: "Bulk jobs: items that failed" }),
  error: z.string().nullable(),
  finishedAt: dateTime(),
});

export const attentionSchema = z
  .object({
    total: count().meta({ description: "The sum of the sections' totals" }),
    uploads: section(
      attentionUploadSchema,
      "Portal uploads received or pending, newest first (scopes portals:write or receipts:read)",
    ),
    failedDownloads: section(
      attentionFailedDownloadSchema,
      "Completed share downloads with a file whose SHA-256 did not match, unless a later download of that file by the same recipient (the open link counts as one) matched; newest first (scopes shares:write or receipts:read)",
    ),
    expiringShares: section(
      attentionExpiringShareSchema,
      `Live shares expiring within ${EXPIRING_WITHIN_HOURS} hours that nobody has opened, soonest first (scopes shares:write or receipts:read)`,
    ),
    disabledEndpoints: section(
      attentionEndpointSchema,
      "Webhook endpoints disabled by consecutive failures (not by a member), newest first (scope webhooks:manage)",
    ),
    failedJobs: section(
      attentionJobSchema,
      `Move, copy and bulk jobs that failed (or ended with failed items) in the last ${FAILED_JOBS_DAYS} days, newest first (scope files:read)`,
    ),
  })
  .meta({ id: "Attention" });
export type Attention = z.infer<typeof attentionSchema>;
export type AttentionUpload = z.infer<typeof attentionUploadSchema>;
export type AttentionFailedDownload = z.infer<typeof attentionFailedDownloadSchema>;
export type AttentionExpiringShare = z.infer<typeof attentionExpiringShareSchema>;
export type AttentionEndpoint = z.infer<typeof attentionEndpointSchema>;
export type AttentionJob = z.infer<typeof attentionJobSchema>;
