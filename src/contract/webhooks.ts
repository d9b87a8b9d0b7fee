import { z } from "zod";
import { count, dateTime, idSchema, queryInteger } from "./common";
import { eventTypes, streamEventTypes } from "./events";
import { DELIVERIES_PAGE_DEFAULT, DELIVERIES_PAGE_MAX, DISABLE_AFTER_FAILURES } from "./rules";

export {
  DELIVERIES_PAGE_DEFAULT,
  DELIVERIES_PAGE_MAX,
  DELIVERY_HEADER,
  DISABLE_AFTER_FAILURES,
  EVENT_HEADER,
  MAX_ATTEMPTS,
  parseSignatureHeader,
  RETRY_SCHEDULE_MS,
  SECRET_PREFIX,
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
} from "./rules";
export const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_KEPT_BYTES = 4096;

export const secretSchema = z
  .string()
  .regex(/^whsec_[A-Za-z0-9]{32}$/)
  .meta({ description: "`whsec_` + 32 base62 characters; the whole string is the HMAC key" });

/*
 * What `new URL` accepts as an absolute http(s) URL with a host and no credentials, as a pattern
 * for the document (a little narrower: a host name whose last label starts with a letter, or an
 * IPv4 address, then a port up to 65535).
 */
const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const URL_HOST = `(?:(?:[A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*\\.?|(?:${OCTET}\\.){3}${OCTET})`;
const URL_PORT =
  "(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?";
const WEBHOOK_URL_PATTERN = `^[Hh][Tt][Tt][Pp][Ss]?://${URL_HOST}${URL_PORT}(?:[/?#]\\S*)?$`;

export const webhookUrlSchema = z
  .string()
  .min(8)
  .max(2048)
  .refine(
    (s) => {
      try {
        const u = new URL(s);
        return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
      } catch {
        return false;
      }
    },
    { message: "Must be an absolute http or https URL" },
  )
  .meta({
    pattern: WEBHOOK_URL_PATTERN,
    description:
      "Absolute http(s), without a user name or password (`credentials_in_url`). An IP address that is private, loopback, link-local or otherwise not public is refused (`private_address`) unless the service allows it; a host name is checked when a delivery connects",
  });

/** A catalogue type or `*` (everything, including types added later). */
export const subscribableEventSchema = z
  .string()
  .refine((s) => s === "*" || (eventTypes as string[]).includes(s), {
    message: "Must be an event type from GET /webhooks/events, or *",
  })
  .meta({ enum: [...eventTypes, "*"], description: "An event type of the catalogue, or `*`" });

const eventList = z.array(subscribableEventSchema).min(1).max(50);

export const webhookCatalogueSchema = z
  .object({ events: z.array(z.enum(eventTypes as [string, ...string[]])) })
  .meta({ id: "WebhookEventCatalogue" });

export const createWebhookBodySchema = z
  .object({
    url: webhookUrlSchema,
    events: eventList,
    description: z.string().max(200).nullable().optional(),
  })
  .meta({ id: "CreateWebhook" });
export type CreateWebhookBody = z.infer<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .object({
    url: webhookUrlSchema.optional(),
    events: eventList.optional(),
    description: z.string().max(200).nullable().optional(),
    status: z
      .enum(["active", "disabled"])
      .optional()
      .meta({ description: "`active` re-enables and resets `failureCount`" }),
  })
  .meta({ id: "UpdateWebhook" });
export type UpdateWebhookBody = z.infer<typeof updateWebhookBodySchema>;

export const webhookStatusSchema = z.enum(["active", "disabled"]);

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    status: webhookStatusSchema,
    failureCount: count().meta({
      description: `Consecutive failed attempts; ${DISABLE_AFTER_FAILURES} disable the endpoint`,
    }),
    lastDeliveryAt: dateTime()
      .nullable()
      .meta({ description: "Time of the last attempt, whatever its outcome" }),
    createdAt: dateTime(),
    nextAttemptAt: dateTime()
      .nullable()
      .meta({ description: "Extension: the earliest scheduled attempt of a pending delivery" }),
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const createdWebhookSchema = webhookEndpointSchema
  .extend({ secret: secretSchema.meta({ description: "Returned here once; never again" }) })
  .meta({ id: "WebhookEndpointWithSecret" });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const rotatedSecretSchema = z
  .object({ id: z.string(), secret: secretSchema })
  .meta({ id: "WebhookSecret" });

export const webhookTestResultSchema = z
  .object({
    eventId: z.string(),
    deliveryId: z.string().optional().meta({
      description: "Absent when the endpoint is disabled: the event is recorded, nothing is sent",
    }),
  })
  .meta({ id: "WebhookTestResult" });

export const deliveryStatusSchema = z.enum(["pending", "delivered", "failed"]);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

export const webhookDeliverySchema = z
  .object({
    id: idSchema.meta({ description: "Pass the last one as `before` for the next page" }),
    eventId: z.string(),
    type: z.string(),
    status: deliveryStatusSchema,
    attempts: count(),
    nextAttemptAt: dateTime().meta({
      description:
        "Pending: when the next attempt is due. Delivered or failed: when the last attempt was due",
    }),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    deliveredAt: dateTime().nullable(),
    createdAt: dateTime(),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const deliveriesQuerySchema = z.object({
  status: deliveryStatusSchema.optional(),
  type: z
    .enum(streamEventTypes as [string, ...string[]])
    .optional()
    .meta({ description: "Only deliveries of this event type" }),
  since: dateTime()
    .optional()
    .meta({ description: "Only deliveries created at or after this time" }),
  before: idSchema
    .optional()
    .meta({ description: "Page cursor: the id of the last delivery of the previous page" }),
  limit: queryInteger(1, DELIVERIES_PAGE_MAX).default(DELIVERIES_PAGE_DEFAULT),
});
export type DeliveriesQuery = z.input<typeof deliveriesQuerySchema>;

export const deliveryAttemptSchema = z
  .object({
    attempt: count().meta({ description: "1-based; the value sent as delivery.attempt" }),
    manual: z
      .boolean()
      .meta({ description: "Made by the retry operation rather than the schedule" }),
    startedAt: dateTime(),
    durationMs: count(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    responseBody: z
      .string()
      .nullable()
      .meta({ description: "The first 4 KB of the response body" }),
    responseTruncated: z.boolean(),
    requestHeaders: z.record(z.string(), z.string()),
  })
  .meta({ id: "WebhookDeliveryAttempt" });
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

export const webhookDeliveryDetailSchema = webhookDeliverySchema
  .extend({
    endpointId: z.string(),
    request: z.object({
      url: z.string(),
      headers: z.record(z.string(), z.string()),
      body: z
        .string()
        .meta({ description: "The raw JSON body of the latest attempt, or of the next one" }),
    }),
    attemptLog: z
      .array(deliveryAttemptSchema)
      .meta({ description: "Every attempt, oldest first (`attempts` stays the spec's count)" }),
  })
  .meta({ id: "WebhookDeliveryDetail" });
export type WebhookDeliveryDetail = z.infer<typeof webhookDeliveryDetailSchema>;

export const webhookRetryResultSchema = webhookDeliveryDetailSchema
  .extend({
    retried: z.boolean().meta({
      description:
        "Extension: false when an attempt of this delivery was already in flight, so nothing was sent and the delivery is as it stands",
    }),
  })
  .meta({ id: "WebhookRetryResult" });
export type WebhookRetryResult = z.infer<typeof webhookRetryResultSchema>;

/** What a receiver gets: the event plus which delivery and attempt this is. */
export const webhookPayloadSchema = z
  .object({
    id: z.string().meta({ description: "The event id: the idempotency key" }),
    type: z.string(),
    createdAt: dateTime(),
    workspaceId: z.string(),
    data: z.record(z.string(), z.unknown()),
    delivery: z.object({ id: z.string(), attempt: count() }),
  })
  .meta({ id: "WebhookPayload" });
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

export const createHookBodySchema = z
  .object({
    targetUrl: webhookUrlSchema,
    event: subscribableEventSchema,
  })
  .meta({ id: "CreateRestHook" });

export const updateHookBodySchema = z
  .object({
    status: webhookStatusSchema.meta({
      description: "`active` re-enables and resets the failure count; `disabled` holds deliveries",
    }),
  })
  .meta({ id: "UpdateRestHook" });

export const restHookSchema = z
  .object({
    id: z.string(),
    targetUrl: z.string(),
    event: z.string(),
    status: webhookStatusSchema,
    createdAt: dateTime(),
  })
  .meta({ id: "RestHook" });
export type RestHook = z.infer<typeof restHookSchema>;

export const createdHookSchema = restHookSchema
  .extend({
    secret: secretSchema.meta({ description: "Signs deliveries like a webhook's; returned once" }),
  })
  .meta({ id: "RestHookWithSecret" });
