import { z } from "zod";
import { count, dateTime, idSchema, queryInteger, trimmedText } from "./common";
import { mediaAnchorSchema } from "./media";
import {
  awaitingReviewStatuses,
  PORTAL_UPLOADS_PAGE_DEFAULT,
  PORTAL_UPLOADS_PAGE_MAX,
  PORTAL_UPLOADS_SEARCH_MAX,
  portalUploadStatuses,
  REVIEW_BULK_MAX,
  REVIEW_NOTE_MAX,
  reviewDecisions,
  UPLOAD_NOTE_MAX,
  UPLOAD_NOTES_MAX,
} from "./portal-rules";
import { portalUploadSchema } from "./portals";

/* The review queue's requests and answers: one decision, the queue's pages, decisions in bulk. */

export const reviewBodySchema = z
  .object({
    decision: z.enum(reviewDecisions),
    note: z.string().max(REVIEW_NOTE_MAX).optional().meta({
      description: "The internal note, kept with the decision; omitted: the note is cleared",
    }),
    noteToSender: z.string().max(REVIEW_NOTE_MAX).optional().meta({
      description:
        "Extension: the note the sender sees (status page, decision mail); omitted: cleared",
    }),
  })
  .meta({ id: "ReviewPortalUploadBody" });
export type ReviewBody = z.input<typeof reviewBodySchema>;

export const listPortalUploadsQuerySchema = z.object({
  portalId: idSchema.optional(),
  status: z
    .enum([...portalUploadStatuses, "awaiting"])
    .optional()
    .meta({ description: `One status, or \`awaiting\`: ${awaitingReviewStatuses.join(" or ")}` }),
  q: z.string().trim().min(1).max(PORTAL_UPLOADS_SEARCH_MAX).optional().meta({
    description:
      "Uploads whose sender's name or address, or portal's title, contains this (any case)",
  }),
  cursor: idSchema.optional().meta({ description: "The previous page's `next`" }),
  limit: queryInteger(1, PORTAL_UPLOADS_PAGE_MAX).default(PORTAL_UPLOADS_PAGE_DEFAULT),
});

export const portalUploadsPageSchema = z
  .object({
    items: z.array(portalUploadSchema),
    next: idSchema.nullable().meta({ description: "Pass as `cursor` for the next page" }),
    total: count().meta({ description: "Uploads matching the filter, all pages" }),
  })
  .meta({ id: "PortalUploadsPage" });
export type PortalUploadsPage = z.infer<typeof portalUploadsPageSchema>;

export const bulkReviewBodySchema = reviewBodySchema
  .extend({
    uploadIds: z
      .array(idSchema)
      .min(1)
      .max(REVIEW_BULK_MAX)
      .meta({
        description: `The uploads to decide, 1 to ${REVIEW_BULK_MAX}; one named twice is decided once`,
      }),
  })
  .meta({ id: "BulkReviewPortalUploadsBody" });
export type BulkReviewBody = z.input<typeof bulkReviewBodySchema>;

export const bulkReviewResultSchema = z
  .object({
    decided: z.array(portalUploadSchema).meta({ description: "The uploads as decided" }),
    refused: z
      .array(
        z.object({
          uploadId: z.string(),
          code: z.string().meta({ description: "`not_found` or `not_received`" }),
          message: z.string(),
        }),
      )
      .meta({ description: "The uploads that could not be decided, and why" }),
  })
  .meta({ id: "BulkReviewPortalUploadsResult" });
export type BulkReviewResult = z.infer<typeof bulkReviewResultSchema>;

/*
 * Review notes: what reviewers write about an upload's files, each pointing at a time or a PDF
 * page when it is about one (time-coded notes). Members only: the sender never sees them.
 */

export const uploadNoteSchema = z
  .object({
    id: z.string(),
    uploadId: z.string(),
    body: z.string(),
    anchor: mediaAnchorSchema.nullable().meta({
      description:
        "The time or PDF page it points at; `path` is the file's path as the upload lists it now",
    }),
    author: z
      .object({
        id: z.string().nullable(),
        name: z.string().nullable(),
        email: z.string().nullable(),
      })
      .meta({ description: "The member who wrote it (`id` null: a key without a member)" }),
    createdAt: dateTime(),
  })
  .meta({ id: "PortalUploadNote" });
export type UploadNote = z.infer<typeof uploadNoteSchema>;

export const uploadNotesSchema = z
  .object({
    items: z
      .array(uploadNoteSchema)
      .meta({ description: `Oldest first, all of them (${UPLOAD_NOTES_MAX} at most)` }),
  })
  .meta({ id: "PortalUploadNotes" });
export type UploadNotes = z.infer<typeof uploadNotesSchema>;

export const createUploadNoteBodySchema = z
  .object({
    body: trimmedText(UPLOAD_NOTE_MAX),
    anchor: mediaAnchorSchema.nullable().optional().meta({
      description:
        "A time (`timeMs`) or a PDF page (`page`), exactly one, in one of the upload's files",
    }),
  })
  .meta({ id: "CreatePortalUploadNoteBody" });
export type CreateUploadNoteBody = z.input<typeof createUploadNoteBodySchema>;
