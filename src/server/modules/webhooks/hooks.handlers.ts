import type { RouteHandler } from "@hono/zod-openapi";
import { sampleEventData } from "@/contract/events";
import type { WebhookPayload } from "@/contract/webhooks";
import type { AppEnv } from "@/server/http/types";
import { toIso } from "@/server/lib/clock";
import { assertStorableUrl } from "./address-guard";
import type {
  createHookRoute,
  deleteHookRoute,
  hookSamplesRoute,
  listHooksRoute,
  updateHookRoute,
} from "./webhooks.routes";

export const createHook: RouteHandler<typeof createHookRoute, AppEnv> = async (c) => {
  const { webhooksStore, config } = c.get("deps");
  const body = c.req.valid("json");
  assertStorableUrl("targetUrl", body.targetUrl, config.webhooksAllowPrivate);
  return c.json(await webhooksStore.createHook(c.get("auth").workspaceId, body), 201);
};

export const listHooks: RouteHandler<typeof listHooksRoute, AppEnv> = async (c) =>
  c.json(await c.get("deps").webhooksStore.listHooks(c.get("auth").workspaceId), 200);

export const updateHook: RouteHandler<typeof updateHookRoute, AppEnv> = async (c) => {
  const { hookId } = c.req.valid("param");
  const { status } = c.req.valid("json");
  const { workspaceId } = c.get("auth");
  return c.json(await c.get("deps").webhooksStore.updateHook(workspaceId, hookId, { status }), 200);
};

export const deleteHook: RouteHandler<typeof deleteHookRoute, AppEnv> = async (c) => {
  const { hookId } = c.req.valid("param");
  await c.get("deps").webhooksStore.deleteHook(c.get("auth").workspaceId, hookId);
  return c.body(null, 204);
};

export const hookSamples: RouteHandler<typeof hookSamplesRoute, AppEnv> = async (c) => {
  const { webhooksStore, clock } = c.get("deps");
  const { workspaceId } = c.get("auth");
  const { eventType } = c.req.valid("param");
  const samples: WebhookPayload[] = (
    await webhooksStore.latestEvents(workspaceId, eventType, 3)
  ).map((e) => ({
    ...e,
    delivery: { id: "sample", attempt: 1 },
  }));
  if (samples.length === 0) {
    samples.push({
      id: "sample",
      type: eventType,
      createdAt: toIso(clock.now()),
      workspaceId,
      data: sampleEventData[eventType] ?? {},
      delivery: { id: "sample", attempt: 1 },
    });
  }
  return c.json(samples, 200);
};
