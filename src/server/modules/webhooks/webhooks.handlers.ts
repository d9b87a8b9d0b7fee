import type { RouteHandler } from "@hono/zod-openapi";
import { eventTypes, WEBHOOK_TEST } from "@/contract/events";
import type { WebhookDeliveryDetail } from "@/contract/webhooks";
import type { Db } from "@/server/db/database";
import type { AppEnv } from "@/server/http/types";
import { notFound } from "@/server/lib/api-error";
import { assertStorableUrl } from "./address-guard";
import {
  attemptView,
  type DeliveryRow,
  deliveryOfEvent,
  deliveryView,
  getDelivery,
  listAttempts,
  listDeliveries as listDeliveryRows,
} from "./deliveries.repository";
import { newSigningSecret, type SecretBox } from "./secret-box";
import { buildRequest } from "./signing";
import {
  deleteEndpoint,
  endpointView,
  getEndpoint,
  insertEndpoint,
  listEndpoints,
  nextAttempts,
  setEndpointSecret,
  updateEndpoint,
} from "./webhooks.repository";
import type {
  createWebhookRoute,
  deleteWebhookRoute,
  getDeliveryRoute,
  getWebhookRoute,
  listDeliveriesRoute,
  listWebhookEventsRoute,
  listWebhooksRoute,
  retryDeliveryRoute,
  rotateSecretRoute,
  testWebhookRoute,
  updateWebhookRoute,
} from "./webhooks.routes";

function endpointOr404(db: Db, workspaceId: string, id: string) {
  const endpoint = getEndpoint(db, workspaceId, "webhook", id);
  if (!endpoint) throw notFound("Webhook endpoint", { webhookId: id });
  return endpoint;
}

function present(db: Db, workspaceId: string, id: string) {
  const endpoint = endpointOr404(db, workspaceId, id);
  return endpointView(endpoint, nextAttempts(db, workspaceId).get(id) ?? null);
}

export const listWebhookEvents: RouteHandler<typeof listWebhookEventsRoute, AppEnv> = (c) =>
  c.json({ events: eventTypes }, 200);

export const createWebhook: RouteHandler<typeof createWebhookRoute, AppEnv> = (c) => {
  const { db, clock, webhooks, config } = c.get("deps");
  const { workspaceId } = c.get("auth");
  const body = c.req.valid("json");
  assertStorableUrl("url", body.url, config.webhooksAllowPrivate);
  const secret = newSigningSecret();
  const row = insertEndpoint(
    db,
    {
      workspaceId,
      kind: "webhook",
      url: body.url,
      description: body.description ?? null,
      events: body.events,
      secretSealed: webhooks.secrets.seal(secret),
    },
    clock.now(),
  );
  return c.json({ ...endpointView(row, null), secret }, 201);
};

export const listWebhooks: RouteHandler<typeof listWebhooksRoute, AppEnv> = (c) => {
  const { db } = c.get("deps");
  const { workspaceId } = c.get("auth");
  const next = nextAttempts(db, workspaceId);
  return c.json(
    listEndpoints(db, workspaceId, "webhook").map((e) => endpointView(e, next.get(e.id) ?? null)),
    200,
  );
};

export const getWebhook: RouteHandler<typeof getWebhookRoute, AppEnv> = (c) => {
  const { db } = c.get("deps");
  return c.json(present(db, c.get("auth").workspaceId, c.req.valid("param").webhookId), 200);
};

export const updateWebhook: RouteHandler<typeof updateWebhookRoute, AppEnv> = (c) => {
  const { db, config } = c.get("deps");
  const { workspaceId } = c.get("auth");
  const { webhookId } = c.req.valid("param");
  const patch = c.req.valid("json");
  if (patch.url !== undefined) assertStorableUrl("url", patch.url, config.webhooksAllowPrivate);
  // Immediate: it reads, then writes, and another process may write in between (ROLES).
  db.transaction(() => {
    endpointOr404(db, workspaceId, webhookId);
    updateEndpoint(db, webhookId, patch);
  }).immediate();
  return c.json(present(db, workspaceId, webhookId), 200);
};

export const deleteWebhook: RouteHandler<typeof deleteWebhookRoute, AppEnv> = (c) => {
  const { db } = c.get("deps");
  const { webhookId } = c.req.valid("param");
  endpointOr404(db, c.get("auth").workspaceId, webhookId);
  deleteEndpoint(db, webhookId);
  return c.body(null, 204);
};

export const rotateSecret: RouteHandler<typeof rotateSecretRoute, AppEnv> = (c) => {
  const { db, webhooks } = c.get("deps");
  const { webhookId } = c.req.valid("param");
  endpointOr404(db, c.get("auth").workspaceId, webhookId);
  const secret = newSigningSecret();
  setEndpointSecret(db, webhookId, webhooks.secrets.seal(secret));
  return c.json({ id: webhookId, secret }, 201);
};

export const testWebhook: RouteHandler<typeof testWebhookRoute, AppEnv> = (c) => {
  const { db, events } = c.get("deps");
  const { workspaceId } = c.get("auth");
  const { webhookId } = c.req.valid("param");
  endpointOr404(db, workspaceId, webhookId);
  // The webhooks fan-out sends a test event to the endpoint its data names, and only while active.
  const eventId = events.record(workspaceId, WEBHOOK_TEST, {
    webhookId,
    message: "A test event from Consign",
  });
  const deliveryId = deliveryOfEvent(db, eventId, webhookId);
  return c.json(deliveryId ? { eventId, deliveryId } : { eventId }, 201);
};

export const listDeliveries: RouteHandler<typeof listDeliveriesRoute, AppEnv> = (c) => {
  const { db } = c.get("deps");
  const { webhookId } = c.req.valid("param");
  endpointOr404(db, c.get("auth").workspaceId, webhookId);
  return c.json(listDeliveryRows(db, webhookId, c.req.valid("query")).map(deliveryView), 200);
};

function detail(db: Db, secrets: SecretBox, d: DeliveryRow, now: number): WebhookDeliveryDetail {
  const attempts = listAttempts(db, d.id);
  const last = attempts.at(-1);
  // Before the first attempt, show what it will send (its signature time will differ).
  const request = last
    ? { url: last.url, headers: JSON.parse(last.request_headers), body: last.request_body }
    : buildRequest(db, secrets, d, d.attempts + 1, now)!.request;
  return {
    ...deliveryView(d),
    endpointId: d.endpoint_id,
    request,
    attemptLog: attempts.map(attemptView),
  };
}

function deliveryOr404(db: Db, workspaceId: string, webhookId: string, deliveryId: string) {
  endpointOr404(db, workspaceId, webhookId);
  const delivery = getDelivery(db, webhookId, deliveryId);
  if (!delivery) throw notFound("Delivery", { deliveryId });
  return delivery;
}

export const getDeliveryDetail: RouteHandler<typeof getDeliveryRoute, AppEnv> = (c) => {
  const { db, clock, webhooks } = c.get("deps");
  const { webhookId, deliveryId } = c.req.valid("param");
  const delivery = deliveryOr404(db, c.get("auth").workspaceId, webhookId, deliveryId);
  return c.json(detail(db, webhooks.secrets, delivery, clock.now()), 200);
};

export const retryDelivery: RouteHandler<typeof retryDeliveryRoute, AppEnv> = async (c) => {
  const { db, clock, webhooks } = c.get("deps");
  const { webhookId, deliveryId } = c.req.valid("param");
  deliveryOr404(db, c.get("auth").workspaceId, webhookId, deliveryId);
  const retried = await webhooks.retryNow(deliveryId);
  // The endpoint may have been deleted while the attempt was in flight.
  const after = getDelivery(db, webhookId, deliveryId);
  if (!after) throw notFound("Delivery", { deliveryId });
  return c.json({ ...detail(db, webhooks.secrets, after, clock.now()), retried }, 200);
};
