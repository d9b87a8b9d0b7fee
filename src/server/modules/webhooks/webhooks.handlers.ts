import type { RouteHandler } from "@hono/zod-openapi";
import { eventTypes } from "@/contract/events";
import type { AppEnv } from "@/server/http/types";
import { assertStorableUrl } from "./address-guard";
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

export const listWebhookEvents: RouteHandler<typeof listWebhookEventsRoute, AppEnv> = (c) =>
  c.json({ events: eventTypes }, 200);

export const createWebhook: RouteHandler<typeof createWebhookRoute, AppEnv> = async (c) => {
  const { webhooksStore, config } = c.get("deps");
  const body = c.req.valid("json");
  assertStorableUrl("url", body.url, config.webhooksAllowPrivate);
  return c.json(await webhooksStore.createWebhook(c.get("auth").workspaceId, body), 201);
};

export const listWebhooks: RouteHandler<typeof listWebhooksRoute, AppEnv> = async (c) =>
  c.json(await c.get("deps").webhooksStore.listWebhooks(c.get("auth").workspaceId), 200);

export const getWebhook: RouteHandler<typeof getWebhookRoute, AppEnv> = async (c) => {
  const { webhookId } = c.req.valid("param");
  return c.json(
    await c.get("deps").webhooksStore.getWebhook(c.get("auth").workspaceId, webhookId),
    200,
  );
};

export const updateWebhook: RouteHandler<typeof updateWebhookRoute, AppEnv> = async (c) => {
  const { webhooksStore, config } = c.get("deps");
  const { webhookId } = c.req.valid("param");
  const patch = c.req.valid("json");
  if (patch.url !== undefined) assertStorableUrl("url", patch.url, config.webhooksAllowPrivate);
  return c.json(
    await webhooksStore.updateWebhook(c.get("auth").workspaceId, webhookId, patch),
    200,
  );
};

export const deleteWebhook: RouteHandler<typeof deleteWebhookRoute, AppEnv> = async (c) => {
  const { webhookId } = c.req.valid("param");
  await c.get("deps").webhooksStore.deleteWebhook(c.get("auth").workspaceId, webhookId);
  return c.body(null, 204);
};

export const rotateSecret: RouteHandler<typeof rotateSecretRoute, AppEnv> = async (c) => {
  const { webhookId } = c.req.valid("param");
  return c.json(
    await c.get("deps").webhooksStore.rotateSecret(c.get("auth").workspaceId, webhookId),
    201,
  );
};

export const testWebhook: RouteHandler<typeof testWebhookRoute, AppEnv> = async (c) => {
  const { webhookId } = c.req.valid("param");
  return c.json(
    await c.get("deps").webhooksStore.testWebhook(c.get("auth").workspaceId, webhookId),
    201,
  );
};

export const listDeliveries: RouteHandler<typeof listDeliveriesRoute, AppEnv> = async (c) => {
  const { webhookId } = c.req.valid("param");
  const { workspaceId } = c.get("auth");
  const q = c.req.valid("query");
  return c.json(await c.get("deps").webhooksStore.listDeliveries(workspaceId, webhookId, q), 200);
};

export const getDeliveryDetail: RouteHandler<typeof getDeliveryRoute, AppEnv> = async (c) => {
  const { webhookId, deliveryId } = c.req.valid("param");
  const { workspaceId } = c.get("auth");
  return c.json(
    await c.get("deps").webhooksStore.getDelivery(workspaceId, webhookId, deliveryId),
    200,
  );
};

export const retryDelivery: RouteHandler<typeof retryDeliveryRoute, AppEnv> = async (c) => {
  const { webhooksStore, webhooks } = c.get("deps");
  const { webhookId, deliveryId } = c.req.valid("param");
  const result = await webhooksStore.retryDelivery(
    c.get("auth").workspaceId,
    webhookId,
    deliveryId,
    (id) => webhooks.retryNow(id),
  );
  return c.json(result, 200);
};
