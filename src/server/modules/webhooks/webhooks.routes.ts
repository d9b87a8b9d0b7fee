import { z } from "@hono/zod-openapi";
import { streamEventTypes } from "@/contract/events";
import {
  createdHookSchema,
  createdWebhookSchema,
  createHookBodySchema,
  createWebhookBodySchema,
  deliveriesQuerySchema,
  restHookSchema,
  rotatedSecretSchema,
  updateHookBodySchema,
  updateWebhookBodySchema,
  webhookCatalogueSchema,
  webhookDeliveryDetailSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookPayloadSchema,
  webhookRetryResultSchema,
  webhookTestResultSchema,
} from "@/contract/webhooks";
import { apiRoute, json, jsonBody, pathId, workspaceParams } from "@/server/http/router";

const webhookParams = workspaceParams.extend({ webhookId: pathId("webhookId") });
const deliveryParams = webhookParams.extend({ deliveryId: pathId("deliveryId") });
const hookParams = workspaceParams.extend({ hookId: pathId("hookId") });
const scopes = ["webhooks:manage"] as const;
const tags = ["Webhooks"];
const noContent = { 204: { description: "Deleted; no body" } };

export const listWebhookEventsRoute = apiRoute({
  operationId: "listWebhookEventTypes",
  method: "get",
  path: "/workspaces/{workspaceId}/webhooks/events",
  tags,
  summary: "List the event types an endpoint can subscribe to",
  scopes,
  request: { params: workspaceParams },
  responses: {
    200: json(
      webhookCatalogueSchema,
      "The event catalogue; `*` subscribes to all, including later types",
    ),
  },
});

export const createWebhookRoute = apiRoute({
  operationId: "createWebhook",
  method: "post",
  path: "/workspaces/{workspaceId}/webhooks",
  tags,
  summary: "Create a webhook endpoint; the signing secret is returned this once",
  scopes,
  request: { params: workspaceParams, body: jsonBody(createWebhookBodySchema) },
  responses: { 201: json(createdWebhookSchema, "The endpoint, with its signing secret") },
});

export const listWebhooksRoute = apiRoute({
  operationId: "listWebhooks",
  method: "get",
  path: "/workspaces/{workspaceId}/webhooks",
  tags,
  summary: "List webhook endpoints (never with their secrets)",
  scopes,
  request: { params: workspaceParams },
  responses: { 200: json(z.array(webhookEndpointSchema), "Every endpoint, oldest first") },
});

export const getWebhookRoute = apiRoute({
  operationId: "getWebhook",
  method: "get",
  path: "/workspaces/{workspaceId}/webhooks/{webhookId}",
  tags,
  summary: "Read one webhook endpoint (never with its secret)",
  description: "Extension.",
  scopes,
  extension: true,
  request: { params: webhookParams },
  responses: { 200: json(webhookEndpointSchema, "The endpoint") },
});

export const updateWebhookRoute = apiRoute({
  operationId: "updateWebhook",
  method: "patch",
  path: "/workspaces/{workspaceId}/webhooks/{webhookId}",
  tags,
  summary: "Change an endpoint's url, events, description or status; `active` re-enables it",
  scopes,
  request: { params: webhookParams, body: jsonBody(updateWebhookBodySchema) },
  responses: { 200: json(webhookEndpointSchema, "The updated endpoint") },
});

export const deleteWebhookRoute = apiRoute({
  operationId: "deleteWebhook",
  method: "delete",
  path: "/workspaces/{workspaceId}/webhooks/{webhookId}",
  tags,
  summary: "Delete an endpoint with its deliveries",
  scopes,
  request: { params: webhookParams },
  responses: noContent,
});

export const rotateSecretRoute = apiRoute({
  operationId: "rotateWebhookSecret",
  method: "post",
  path: "/workspaces/{workspaceId}/webhooks/{webhookId}/rotate-secret",
  tags,
  summary: "Replace the signing secret; the new one is returned this once",
  description: "The old secret stops signing at once: the next attempt is signed with the new one.",
  scopes,
  request: { params: webhookParams },
  responses: { 201: json(rotatedSecretSchema, "The new secret") },
});

export const testWebhookRoute = apiRoute({
  operationId: "testWebhook",
  method: "post",
  path: "/workspaces/{workspaceId}/webhooks/{webhookId}/test",
  tags,
  summary: "Send a `webhook.test` event to this endpoint only",
  scopes,
  request: { params: webhookParams },
  responses: {
    201: json(webhookTestResultSchema, "The event and, for an active endpoint, its delivery"),
  },
});

export const listDeliveriesRoute = apiRoute({
  operationId: "listWebhookDeliveries",
  method: "get",
  path: "/workspaces/{workspaceId}/webhooks/{webhookId}/deliveries",
  tags,
  summary: "List an endpoint's recent deliveries, newest first",
  description:
    "`status`, `type`, `since`, `before` and `limit` are extensions. Page by passing the last id as `before`.",
  scopes,
  request: { params: webhookParams, query: deliveriesQuerySchema },
  responses: { 200: json(z.array(webhookDeliverySchema), "Deliveries, newest first") },
});

export const getDeliveryRoute = apiRoute({
  operationId: "getWebhookDelivery",
  method: "get",
  path: "/workspaces/{workspaceId}/webhooks/{webhookId}/deliveries/{deliveryId}",
  tags,
  summary: "Read one delivery with its request and every attempt",
  description: "Extension.",
  scopes,
  extension: true,
  request: { params: deliveryParams },
  responses: { 200: json(webhookDeliveryDetailSchema, "The delivery in detail") },
});

export const retryDeliveryRoute = apiRoute({
  operationId: "retryWebhookDelivery",
  method: "post",
  path: "/workspaces/{workspaceId}/webhooks/{webhookId}/deliveries/{deliveryId}/retry",
  tags,
  summary: "Attempt a delivery now and return it with the attempt's outcome",
  description:
    "Waits for the attempt (at most the 10 s timeout). If an attempt of this delivery is already in flight, nothing is sent twice and the delivery is returned as it stands with `retried: false` (an extension member). A failed retry of a pending delivery leaves its schedule as it was; a failed resend of a delivered one leaves it delivered.",
  scopes,
  request: { params: deliveryParams },
  responses: { 200: json(webhookRetryResultSchema, "The delivery after the attempt") },
});

const hookTags = ["REST hooks"];

export const createHookRoute = apiRoute({
  operationId: "subscribeRestHook",
  method: "post",
  path: "/workspaces/{workspaceId}/hooks",
  tags: hookTags,
  summary: "Subscribe a REST hook (automation platforms): one target URL, one event type",
  scopes,
  request: { params: workspaceParams, body: jsonBody(createHookBodySchema) },
  responses: { 201: json(createdHookSchema, "The subscription; keep its id to unsubscribe") },
});

export const listHooksRoute = apiRoute({
  operationId: "listRestHooks",
  method: "get",
  path: "/workspaces/{workspaceId}/hooks",
  tags: hookTags,
  summary: "List REST-hook subscriptions",
  description: "Extension.",
  scopes,
  extension: true,
  request: { params: workspaceParams },
  responses: { 200: json(z.array(restHookSchema), "Every subscription, oldest first") },
});

export const deleteHookRoute = apiRoute({
  operationId: "unsubscribeRestHook",
  method: "delete",
  path: "/workspaces/{workspaceId}/hooks/{hookId}",
  tags: hookTags,
  summary: "Unsubscribe a REST hook",
  scopes,
  request: { params: hookParams },
  responses: noContent,
});

export const updateHookRoute = apiRoute({
  operationId: "updateRestHook",
  method: "patch",
  path: "/workspaces/{workspaceId}/hooks/{hookId}",
  tags: hookTags,
  summary: "Re-enable or disable a REST hook; `active` resets its failure count",
  description:
    "Extension. Like a webhook endpoint's status: `active` makes held deliveries due again, `disabled` holds them.",
  scopes,
  extension: true,
  request: { params: hookParams, body: jsonBody(updateHookBodySchema) },
  responses: { 200: json(restHookSchema, "The updated subscription") },
});

export const hookSamplesRoute = apiRoute({
  operationId: "listRestHookSamples",
  method: "get",
  path: "/workspaces/{workspaceId}/hooks/samples/{eventType}",
  tags: hookTags,
  summary: "Sample payloads for an event type, as a REST hook or webhook receives them",
  description:
    "The workspace's latest events of the type when there are any, otherwise one made-up example.",
  scopes,
  request: {
    params: workspaceParams.extend({
      eventType: z
        .enum(streamEventTypes as [string, ...string[]])
        .meta({ param: { name: "eventType", in: "path" } }),
    }),
  },
  responses: { 200: json(z.array(webhookPayloadSchema), "Up to three payloads, newest first") },
});
