import type { RouteHandler } from "@hono/zod-openapi";
import { sampleEventData } from "@/contract/events";
import type { WebhookPayload } from "@/contract/webhooks";
import type { AppEnv } from "@/server/http/types";
import { notFound } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { eventView, latestEventsOfType } from "@/server/modules/events/events.repository";
import { assertStorableUrl } from "./address-guard";
import { newSigningSecret } from "./secret-box";
import {
  deleteEndpoint,
  getEndpoint,
  hookView,
  insertEndpoint,
  listEndpoints,
  updateEndpoint,
} from "./webhooks.repository";
import type {
  createHookRoute,
  deleteHookRoute,
  hookSamplesRoute,
  listHooksRoute,
  updateHookRoute,
} from "./webhooks.routes";

export const createHook: RouteHandler<typeof createHookRoute, AppEnv> = (c) => {
  const { db, clock, webhooks, config } = c.get("deps");
  const { targetUrl, event } = c.req.valid("json");
  assertStorableUrl("targetUrl", targetUrl, config.webhooksAllowPrivate);
  const secret = newSigningSecret();
  const row = insertEndpoint(
    db,
    {
      workspaceId: c.get("auth").workspaceId,
      kind: "rest_hook",
      url: targetUrl,
      description: null,
      events: [event],
      secretSealed: webhooks.secrets.seal(secret),
    },
    clock.now(),
  );
  return c.json({ ...hookView(row), secret }, 201);
};

export const listHooks: RouteHandler<typeof listHooksRoute, AppEnv> = (c) => {
  const { db } = c.get("deps");
  return c.json(listEndpoints(db, c.get("auth").workspaceId, "rest_hook").map(hookView), 200);
};

export const updateHook: RouteHandler<typeof updateHookRoute, AppEnv> = (c) => {
  const { db } = c.get("deps");
  const { workspaceId } = c.get("auth");
  const { hookId } = c.req.valid("param");
  const { status } = c.req.valid("json");
  // Immediate: it reads, then writes, and another process may write in between (ROLES).
  const row = db
    .transaction(() => {
      if (!getEndpoint(db, workspaceId, "rest_hook", hookId)) {
        throw notFound("REST hook", { hookId });
      }
      updateEndpoint(db, hookId, { status });
      return getEndpoint(db, workspaceId, "rest_hook", hookId)!;
    })
    .immediate();
  return c.json(hookView(row), 200);
};

export const deleteHook: RouteHandler<typeof deleteHookRoute, AppEnv> = (c) => {
  const { db } = c.get("deps");
  const { hookId } = c.req.valid("param");
  if (!getEndpoint(db, c.get("auth").workspaceId, "rest_hook", hookId)) {
    throw notFound("REST hook", { hookId });
  }
  deleteEndpoint(db, hookId);
  return c.body(null, 204);
};

export const hookSamples: RouteHandler<typeof hookSamplesRoute, AppEnv> = (c) => {
  const { db, clock } = c.get("deps");
  const { workspaceId } = c.get("auth");
  const { eventType } = c.req.valid("param");
  const samples: WebhookPayload[] = latestEventsOfType(db, workspaceId, eventType, 3).map((e) => ({
    ...eventView(e),
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
