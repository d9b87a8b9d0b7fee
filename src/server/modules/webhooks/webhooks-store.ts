import { type Event, WEBHOOK_TEST } from "@/contract/events";
import type {
  CreatedWebhook,
  DeliveriesQuery,
  RestHook,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
  WebhookRetryResult,
} from "@/contract/webhooks";
import type { Db } from "@/server/db/database";
import { ApiError, notFound } from "@/server/lib/api-error";
import type { Clock } from "@/server/lib/clock";
import {
  type EventRecorder,
  type EventRow,
  eventView,
  getEvent,
  latestEventsOfType,
} from "@/server/modules/events/events.repository";
import {
  type AttemptRow,
  attemptView,
  type DeliveryRow,
  deliveryOfEvent,
  deliveryView,
  getDelivery,
  listAttempts,
  listDeliveries,
} from "./deliveries.repository";
import { newSigningSecret, type SecretBox } from "./secret-box";
import { signedRequest } from "./signing";
import {
  deleteEndpoint,
  type EndpointKind,
  type EndpointPatch,
  type EndpointRow,
  endpointView,
  getEndpoint,
  hookView,
  insertEndpoint,
  listEndpoints,
  nextAttempts,
  setEndpointSecret,
  updateEndpoint,
} from "./webhooks.repository";

export type DeliveriesPage = Required<Pick<DeliveriesQuery, "limit">> & DeliveriesQuery;
export interface NewWebhook {
  url: string;
  description?: string | null | undefined;
  events: string[];
}
export type CreatedHook = RestHook & { secret: string };
export type TestResult = { eventId: string; deliveryId?: string };

/**
 * The webhooks console's port (docs/scale-out.md, Webhooks): endpoints and REST hooks, their
 * deliveries' reads and the test ping, one async call per unit. A new or rotated secret is
 * returned once and stored sealed (secret-box.ts); URLs are checked by the handlers before.
 * The claims and attempts are the dispatcher's (delivery-claims.ts). SQLite's implementation
 * runs today's statements inside the call; PostgreSQL's is webhooks-store.pg.ts, and both
 * answer alike (webhooks-store.test.ts). Unknown ids are 404 `not_found` with
 * `details.webhookId`, `details.hookId` or `details.deliveryId`.
 */
export interface WebhooksStore {
  listWebhooks(workspaceId: string): Promise<WebhookEndpoint[]>;
  getWebhook(workspaceId: string, id: string): Promise<WebhookEndpoint>;
  createWebhook(workspaceId: string, body: NewWebhook): Promise<CreatedWebhook>;
  /** Disabling holds the endpoint's pending deliveries; re-enabling releases them. */
  updateWebhook(workspaceId: string, id: string, patch: EndpointPatch): Promise<WebhookEndpoint>;
  /** Its deliveries and their attempts go with it. */
  deleteWebhook(workspaceId: string, id: string): Promise<void>;
  rotateSecret(workspaceId: string, id: string): Promise<{ id: string; secret: string }>;
  /** Records `webhook.test`; the fan-out makes its delivery while the endpoint is active. */
  testWebhook(workspaceId: string, id: string): Promise<TestResult>;
  /** Newest first, filtered and paged by `before` (a delivery id). */
  listDeliveries(
    workspaceId: string,
    webhookId: string,
    q: DeliveriesPage,
  ): Promise<WebhookDelivery[]>;
  getDelivery(
    workspaceId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<WebhookDeliveryDetail>;
  /**
   * `attempt` (the dispatcher's retryNow) runs once the delivery is found; the delivery is read
   * again after it, and is 404 if its endpoint was deleted meanwhile.
   */
  retryDelivery(
    workspaceId: string,
    webhookId: string,
    deliveryId: string,
    attempt: (deliveryId: string) => Promise<boolean>,
  ): Promise<WebhookRetryResult>;
  listHooks(workspaceId: string): Promise<RestHook[]>;
  createHook(workspaceId: string, body: { targetUrl: string; event: string }): Promise<CreatedHook>;
  updateHook(
    workspaceId: string,
    id: string,
    patch: { status: "active" | "disabled" },
  ): Promise<RestHook>;
  deleteHook(workspaceId: string, id: string): Promise<void>;
  /** The workspace's latest events of one type, newest first (the REST hooks' samples). */
  latestEvents(workspaceId: string, type: string, limit: number): Promise<Event[]>;
}

export const webhookMissing = (id: string) => notFound("Webhook endpoint", { webhookId: id });
export const hookMissing = (id: string) => notFound("REST hook", { hookId: id });
export const deliveryMissing = (id: string) => notFound("Delivery", { deliveryId: id });
export const missing = (kind: EndpointKind, id: string) =>
  kind === "webhook" ? webhookMissing(id) : hookMissing(id);

export const TEST_MESSAGE = "A test event from Consign";

/**
 * A delivery's detail: the latest attempt's request or, before the first, the one the next
 * attempt will send (its signature time will differ).
 */
export function deliveryDetail(
  secrets: SecretBox,
  read: { endpoint: EndpointRow; delivery: DeliveryRow; attempts: AttemptRow[]; event: EventRow },
  now: number,
): WebhookDeliveryDetail {
  const { endpoint, delivery: d, attempts, event } = read;
  const last = attempts.at(-1);
  const request = last
    ? { url: last.url, headers: JSON.parse(last.request_headers), body: last.request_body }
    : signedRequest(secrets, endpoint, event, d.id, d.attempts + 1, now).request;
  return {
    ...deliveryView(d),
    endpointId: d.endpoint_id,
    request,
    attemptLog: attempts.map(attemptView),
  };
}

/** A retry: the delivery read (its 404s), the attempt, the delivery read again. */
export async function retryAndRead(
  read: () => Promise<WebhookDeliveryDetail>,
  attempt: () => Promise<boolean>,
  deliveryId: string,
): Promise<WebhookRetryResult> {
  await read();
  const retried = await attempt();
  try {
    return { ...(await read()), retried };
  } catch (err) {
    // The endpoint, and with it the delivery, was deleted while the attempt was in flight.
    if (err instanceof ApiError && err.status === 404) throw deliveryMissing(deliveryId);
    throw err;
  }
}

/** The embedded engine: the module's statements, unchanged, inside each call. */
export class SqliteWebhooksStore implements WebhooksStore {
  private readonly readDelivery: (ws: string, hook: string, id: string) => WebhookDeliveryDetail;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    /** The dispatcher's box, built beside this store. */
    private readonly secrets: () => SecretBox,
  ) {
    // One read transaction, so the attempt log agrees with the delivery's count.
    this.readDelivery = db.transaction((ws: string, hook: string, id: string) => {
      const endpoint = this.endpoint(ws, "webhook", hook);
      const delivery = getDelivery(db, hook, id);
      if (!delivery) throw deliveryMissing(id);
      const read = { endpoint, delivery, attempts: listAttempts(db, id) };
      const event = getEvent(db, delivery.event_id)!;
      return deliveryDetail(this.secrets(), { ...read, event }, this.clock.now());
    });
  }

  private endpoint(workspaceId: string, kind: EndpointKind, id: string) {
    const endpoint = getEndpoint(this.db, workspaceId, kind, id);
    if (!endpoint) throw missing(kind, id);
    return endpoint;
  }

  private present(workspaceId: string, id: string) {
    const endpoint = this.endpoint(workspaceId, "webhook", id);
    return endpointView(endpoint, nextAttempts(this.db, workspaceId).get(id) ?? null);
  }

  private insert(workspaceId: string, kind: EndpointKind, body: NewWebhook) {
    const secret = newSigningSecret();
    const row = insertEndpoint(
      this.db,
      {
        workspaceId,
        kind,
        url: body.url,
        description: body.description ?? null,
        events: body.events,
        secretSealed: this.secrets().seal(secret),
      },
      this.clock.now(),
    );
    return { row, secret };
  }

  async listWebhooks(workspaceId: string) {
    const next = nextAttempts(this.db, workspaceId);
    return listEndpoints(this.db, workspaceId, "webhook").map((e) =>
      endpointView(e, next.get(e.id) ?? null),
    );
  }

  async getWebhook(workspaceId: string, id: string) {
    return this.present(workspaceId, id);
  }

  async createWebhook(workspaceId: string, body: NewWebhook) {
    const { row, secret } = this.insert(workspaceId, "webhook", body);
    return { ...endpointView(row, null), secret };
  }

  async updateWebhook(workspaceId: string, id: string, patch: EndpointPatch) {
    // Immediate: it reads, then writes, and another process may write in between (ROLES).
    this.db
      .transaction(() => {
        this.endpoint(workspaceId, "webhook", id);
        updateEndpoint(this.db, id, patch);
      })
      .immediate();
    return this.present(workspaceId, id);
  }

  async deleteWebhook(workspaceId: string, id: string) {
    this.endpoint(workspaceId, "webhook", id);
    deleteEndpoint(this.db, id);
  }

  async rotateSecret(workspaceId: string, id: string) {
    this.endpoint(workspaceId, "webhook", id);
    const secret = newSigningSecret();
    setEndpointSecret(this.db, id, this.secrets().seal(secret));
    return { id, secret };
  }

  async testWebhook(workspaceId: string, id: string): Promise<TestResult> {
    this.endpoint(workspaceId, "webhook", id);
    const eventId = this.events.record(workspaceId, WEBHOOK_TEST, {
      webhookId: id,
      message: TEST_MESSAGE,
    });
    const deliveryId = deliveryOfEvent(this.db, eventId, id);
    return deliveryId ? { eventId, deliveryId } : { eventId };
  }

  async listDeliveries(workspaceId: string, webhookId: string, q: DeliveriesPage) {
    this.endpoint(workspaceId, "webhook", webhookId);
    return listDeliveries(this.db, webhookId, q).map(deliveryView);
  }

  async getDelivery(workspaceId: string, webhookId: string, deliveryId: string) {
    return this.readDelivery(workspaceId, webhookId, deliveryId);
  }

  retryDelivery(
    workspaceId: string,
    webhookId: string,
    deliveryId: string,
    attempt: (deliveryId: string) => Promise<boolean>,
  ) {
    return retryAndRead(
      async () => this.readDelivery(workspaceId, webhookId, deliveryId),
      () => attempt(deliveryId),
      deliveryId,
    );
  }

  async listHooks(workspaceId: string) {
    return listEndpoints(this.db, workspaceId, "rest_hook").map(hookView);
  }

  async createHook(workspaceId: string, body: { targetUrl: string; event: string }) {
    const { row, secret } = this.insert(workspaceId, "rest_hook", {
      url: body.targetUrl,
      events: [body.event],
    });
    return { ...hookView(row), secret };
  }

  async updateHook(workspaceId: string, id: string, patch: { status: "active" | "disabled" }) {
    // Immediate, as updateWebhook.
    return this.db
      .transaction(() => {
        this.endpoint(workspaceId, "rest_hook", id);
        updateEndpoint(this.db, id, patch);
        return hookView(this.endpoint(workspaceId, "rest_hook", id));
      })
      .immediate();
  }

  async deleteHook(workspaceId: string, id: string) {
    this.endpoint(workspaceId, "rest_hook", id);
    deleteEndpoint(this.db, id);
  }

  async latestEvents(workspaceId: string, type: string, limit: number) {
    return latestEventsOfType(this.db, workspaceId, type, limit).map(eventView);
  }
}
