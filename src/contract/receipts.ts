import { z } from "zod";
import { count, dateTime } from "./common";
import { deliveryStates } from "./receipt-verdict";
import { shareItemSchema, shareRecipientSchema, shareSchema } from "./shares";

/* The delivery receipt (spec: Delivery receipt; the members are ours). */

const who = z.object({
  kind: z.enum(["recipient", "anonymous"]),
  email: z.string().nullable(),
});

export const receiptDownloadSchema = z
  .object({
    id: z.string(),
    who,
    startedAt: dateTime(),
    completedAt: dateTime().nullable().meta({ description: "null: the download did not finish" }),
    fileCount: count(),
    bytes: count(),
    address: z.string().nullable(),
    transferId: z.string().nullable(),
    verified: z.boolean().meta({
      description: "Completed, and every file's SHA-256 computed by the receiving engine matched",
    }),
    files: z
      .array(z.object({ path: z.string(), sha256: z.string().nullable(), matched: z.boolean() }))
      .meta({ description: "The first 100 files, with the SHA-256 the engine reported" }),
    unverifiedFiles: z
      .array(
        z.object({
          path: z.string(),
          expectedSha256: z.string(),
          reportedSha256: z.string().nullable(),
        }),
      )
      .meta({ description: "Every file whose reported SHA-256 was missing or did not match" }),
  })
  .meta({ id: "ReceiptDownload" });

export const timelineTypes = [
  "created",
  "sent",
  "viewed",
  "downloaded",
  "extended",
  "revoked",
  "expired",
  "password_failed",
  "commented",
] as const;

export const receiptSchema = z
  .looseObject({
    receiptId: z.string(),
    generatedAt: dateTime(),
    share: shareSchema.omit({ recipients: true }).extend({
      workspace: z.object({ id: z.string(), name: z.string() }),
    }),
    items: z.array(shareItemSchema),
    totalBytes: count().nullable(),
    recipients: z.array(
      shareRecipientSchema.extend({
        viewed: z.boolean(),
        downloaded: z.boolean().meta({ description: "Completed every file of the share" }),
        verified: z.boolean().meta({
          description: "Holds a verified copy of every file (`delivery` is `verified`)",
        }),
        delivery: z.enum(deliveryStates).meta({
          description:
            "What the recipient holds, from their latest completed download of each file: failed (a copy did not match), verified, delivered_unverified (every file, some not checked), partly_delivered, not_delivered",
        }),
      }),
    ),
    anonymous: z.object({
      views: count(),
      downloads: count(),
      verifiedDownloads: count(),
      lastViewedAt: dateTime().nullable(),
      lastDownloadAt: dateTime().nullable(),
    }),
    downloads: z.array(receiptDownloadSchema),
    timeline: z.array(
      z.object({
        at: dateTime(),
        type: z.enum(timelineTypes),
        who: who.nullable(),
        detail: z.string().nullable(),
      }),
    ),
    verdict: z.enum(deliveryStates).meta({
      description:
        "Does each recipient now hold an intact copy of every file? failed when any recipient's does not, verified when all do, delivered_unverified when all hold every file but some copies were not checked, not_delivered when nobody has a file, else partly_delivered. A share without recipients is judged on its plain link's downloads. A failure a later verified download of the same file by the same recipient superseded is history (downloads, timeline), not the verdict",
    }),
    matrix: z
      .array(
        z.object({
          recipientId: z.string().nullable().meta({ description: "null: the plain link" }),
          email: z.string().nullable(),
          state: z.enum(deliveryStates).meta({ description: "As the recipient's `delivery`" }),
          cells: z.string().meta({
            description:
              "One character per file, in `files` order, for this party's latest completed download of it: v verified (SHA-256 matched), u received but not checked (no SHA-256 reported), x failed (did not match), - not downloaded",
          }),
          decidedBy: z.array(z.number().int().min(-1)).meta({
            description:
              "Run-length pairs over `files` order, [count, download, count, download, …]: the next count files' cells were decided by downloads[download] (its completedAt is when); -1: not downloaded. One pair for a party that took everything in one download",
          }),
        }),
      )
      .meta({
        description:
          "The recipient × file matrix: a row per recipient (in `recipients` order), then the plain link's when it completed a download or the share has no recipients",
      }),
    integrity: z.enum(["verified", "none"]).meta({
      description: "verified when `verdict` is verified; none: not everything is verified yet",
    }),
    files: z.array(
      z.object({
        path: z.string(),
        sizeBytes: count(),
        sha256: z.string(),
        mimeType: z.string().nullable(),
      }),
    ),
    checksumType: z.literal("sha256"),
  })
  .meta({ id: "DeliveryReceipt" });
export type Receipt = z.infer<typeof receiptSchema>;
