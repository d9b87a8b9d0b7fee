import { z } from "zod";
import { count, dateTime, idSchema, queryInteger } from "./common";
import { OUTBOX_PAGE_DEFAULT, OUTBOX_PAGE_MAX } from "./rules";

/* The mail outbox: share links and portal invites and notices, sent or waiting to be sent. */

export const outboxStatuses = ["waiting", "queued", "sent", "failed"] as const;
export const outboxMessageSchema = z
  .object({
    id: z.string(),
    shareId: z.string().nullable(),
    portalId: z.string().nullable().meta({ description: "Extension: a portal's invite or notice" }),
    channel: z.enum(["email", "sms"]).meta({
      description: "sms: a portal's phone invite, which waits here (no SMS provider)",
    }),
    to: z.string(),
    subject: z.string(),
    text: z.string().meta({
      description: "The mail's text; a sent message's personal link is replaced by `[link sent]`",
    }),
    link: z.string().nullable().meta({
      description: "The personal link, while the message has not left (deliver it by hand)",
    }),
    status: z.enum(outboxStatuses).meta({
      description: "waiting (no SMTP_URL: it stays here), queued, sent, failed",
    }),
    attempts: count(),
    error: z.string().nullable(),
    createdAt: dateTime(),
    sentAt: dateTime().nullable(),
  })
  .meta({ id: "OutboxMessage" });
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const outboxQuerySchema = z.object({
  status: z.enum(outboxStatuses).optional(),
  shareId: idSchema.optional(),
  portalId: idSchema.optional(),
  cursor: idSchema.optional(),
  limit: queryInteger(1, OUTBOX_PAGE_MAX).default(OUTBOX_PAGE_DEFAULT),
});
export const outboxPageSchema = z
  .object({
    items: z.array(outboxMessageSchema),
    next: idSchema.nullable().meta({ description: "Pass as `cursor` for the next page" }),
  })
  .meta({ id: "OutboxPage" });
