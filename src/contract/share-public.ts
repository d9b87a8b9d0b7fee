import { z } from "zod";
import { count, dateTime, trimmedText } from "./common";
import { SHARE_FILES_MAX, SHARE_PASSWORD_MAX, shareStatuses } from "./rules";
import { createCommentBodySchema } from "./shares";
import { transferSpecSchema } from "./transfers";

/*
 * The recipient side of a share (docs/api-decisions.md, The recipient page): what the page at
 * `/s/{token}` reads and writes, without an API key. The link's token is the credential; a
 * password-protected share also wants the access token `unlock` returns, in SHARE_ACCESS_HEADER.
 */

export { SHARE_ACCESS_HEADER, SHARE_ACCESS_TTL_SECONDS } from "./rules";

export const linkParamsSchema = z.object({
  token: z
    .string()
    .min(1)
    .max(64)
    .meta({ param: { name: "token", in: "path" }, description: "The link's token (`/s/{token}`)" }),
});

export const publicShareFileSchema = z.object({
  path: z.string().meta({ description: "The file's path as it was shared" }),
  size: count(),
  mime: z.string().nullable(),
});

export const publicShareSchema = z
  .object({
    title: z.string(),
    message: z.string().nullable(),
    status: z.enum(shareStatuses),
    workspaceName: z.string(),
    expiresAt: dateTime(),
    passwordRequired: z.boolean().meta({
      description: "true until the request carries a valid access token; `files` is null then",
    }),
    personal: z.boolean().meta({ description: "A recipient's personal link (not the plain one)" }),
    fileCount: count(),
    totalBytes: count(),
    files: z.array(publicShareFileSchema).nullable().meta({
      description: "The files as they were when shared; null while a password is required",
    }),
  })
  .meta({ id: "PublicShare" });
export type PublicShare = z.infer<typeof publicShareSchema>;

export const unlockBodySchema = z
  .object({ password: z.string().min(1).max(SHARE_PASSWORD_MAX) })
  .meta({ id: "UnlockShareBody" });

export const unlockResponseSchema = z
  .object({
    accessToken: z.string().meta({ description: "Send it in `Consign-Share-Access`" }),
    expiresAt: dateTime(),
  })
  .meta({ id: "ShareAccess" });

export const publicDownloadBodySchema = z
  .object({
    paths: z.array(z.string().max(4096)).min(1).max(SHARE_FILES_MAX).meta({
      description: "Files of the share (their `path`) to download",
    }),
  })
  .meta({ id: "PublicDownloadBody" });

export const publicDownloadSchema = z
  .object({
    transferId: z.string(),
    transferSpec: transferSpecSchema,
  })
  .meta({ id: "PublicDownload" });

export const downloadParamsSchema = linkParamsSchema.extend({
  transferId: z
    .string()
    .min(1)
    .max(64)
    .meta({ param: { name: "transferId", in: "path" } }),
});

export const completeDownloadBodySchema = z
  .object({
    files: z
      .array(
        z.object({
          path: z.string().max(4096),
          sha256: z
            .string()
            .regex(/^[0-9a-fA-F]{64}$/)
            .nullable()
            .meta({ description: "What the engine computed over the bytes it received" }),
        }),
      )
      .min(1)
      .max(SHARE_FILES_MAX),
  })
  .meta({ id: "CompleteDownloadBody" });

export const completedDownloadSchema = z
  .object({
    downloadId: z.string(),
    verified: z.boolean(),
    unverifiedFiles: z.array(z.string()),
  })
  .meta({ id: "CompletedDownload" });

export const publicCommentBodySchema = createCommentBodySchema
  .extend({
    name: trimmedText(200).optional().meta({
      description: "Shown with the comment (a personal link's comment carries its address too)",
    }),
  })
  .meta({ id: "PublicCommentBody" });

export const thumbnailQuerySchema = z.object({
  path: z.string().min(1).max(4096).meta({ description: "An image file of the share" }),
  access: z.string().max(200).optional().meta({
    description: "The access token, for an `<img>` that cannot send the header",
  }),
});

export const previewQuerySchema = z.object({
  path: z.string().min(1).max(4096).meta({ description: "A file of the share (its `path`)" }),
});
