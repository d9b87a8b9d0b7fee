import { type Event, WEBHOOK_TEST } from "@/contract/events";
import type { RestHook, WebhookDeliveryDetail, WebhookEndpoint } from "@/contract/webhooks";
import { insertRowPg } from "@/server/db/pg/insert-row";
import { type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Clock } from "@/server/lib/clock";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import { type EventRow, eventView } from "@/server/modules/events/events.repository";
import { type AttemptRow, type DeliveryRow, deliveryView } from "./deliveries.repository";
import { newSigningSecret, type SecretBox } from "./secret-box";
import {
  type EndpointKind,
  type EndpointPatch,
  type EndpointRow,
  endpointChanges,
  endpointView,
  hookView,
  newEndpointRow,
} from "./webhooks.repository";
import {
  type DeliveriesPage,
  deliveryDetail,
  deliveryMissing,
  missing,
  type NewWebhook,
  retryAndRead,
  TEST_MESSAGE,
  type TestResult,
  type WebhooksStore,
} from "./webhooks-store";

type Q = PgPool | PgClient;

const ENDPOINT =
  "SELECT * FROM webhook_endpoints WHERE id = $1 AND workspace_id = $2 AND kind = $3";
const PENDING = "status = 'pending' AND held = 0";

/**
 * The webhooks console's units on PostgreSQL (docs/scale-out.md, Webhooks). An update locks the
 * endpoint's row (`FOR UPDATE`) before it writes, as the dispatcher's claims and settles lock it,
 * so a re-enable and a settle that disables are never interleaved and the held flag follows the
 * status that commits last. A delivery's detail is read in one REPEATABLE READ snapshot, so its
 * attempt log agrees with its count while a settle commits. The test ping records its event
 * with PgEventRecorder, whose webhooks fan-out (deliveries.pg.ts) makes the delivery in the same
 * transaction.
 */
export class PgWebhooksStore implements WebhooksStore {
  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
    private readonly events: PgEventRecorder,
    private readonly secrets: () => SecretBox,
  ) {}

  private async endpoint(q: Q, workspaceId: string, kind: EndpointKind, id: string, lock = "") {
    const { rows } = await q.query<EndpointRow>(`${ENDPOINT} ${lock}`, [id, workspaceId, kind]);
    if (!rows[0]) throw missing(kind, id);
    return rows[0];
  }

  private async present(q: Q, workspaceId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoint(q, workspaceId, "webhook", id);
    const { rows } = await q.query<{ next: number | null }>(
      `SELECT min(next_attempt_at) AS next FROM webhook_deliveries WHERE ${PENDING} AND endpoint_id = $1`,
      [id],
    );
    return endpointView(endpoint, rows[0]?.next ?? null);
  }

  private async insert(workspaceId: string, kind: EndpointKind, body: NewWebhook) {
    const secret = newSigningSecret();
    const row = newEndpointRow(
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
    await insertRowPg(this.pool, "webhook_endpoints", row);
    return { row, secret };
  }

  /** Reads, locks and patches one endpoint; its pending deliveries follow a status change. */
  private async patch(
    c: PgClient,
    workspaceId: string,
    kind: EndpointKind,
    id: string,
    patch: EndpointPatch,
  ) {
    await this.endpoint(c, workspaceId, kind, id, "FOR UPDATE");
    const set = endpointChanges(patch);
    const columns = Object.keys(set);
    if (columns.length === 0) return;
    await c.query(
      `UPDATE webhook_endpoints SET ${columns.map((k, i) => `${k} = $${i + 2}`).join(", ")} WHERE id = $1`,
      [id, ...columns.map((k) => set[k])],
    );
    if (patch.status === undefined) return;
    await c.query(
      "UPDATE webhook_deliveries SET held = $1 WHERE endpoint_id = $2 AND status = 'pending'",
      [patch.status === "disabled" ? 1 : 0, id],
    );
  }

  private async remove(workspaceId: string, kind: EndpointKind, id: string) {
    const { rowCount } = await this.pool.query(
      "DELETE FROM webhook_endpoints WHERE id = $1 AND workspace_id = $2 AND kind = $3",
      [id, workspaceId, kind],
    );
    if (!rowCount) throw missing(kind, id);
  }

  private async list(workspaceId: string, kind: EndpointKind) {
    const { rows } = await this.pool.query<EndpointRow>(
      "SELECT * FROM webhook_endpoints WHERE workspace_id = $1 AND kind = $2 ORDER BY id",
      [workspaceId, kind],
    );
    return rows;
  }

  async listWebhooks(workspaceId: string) {
    const [endpoints, { rows }] = await Promise.all([
      this.list(workspaceId, "webhook"),
      this.pool.query<{ endpoint_id: string; next: number }>(
        `SELECT endpoint_id, min(next_attempt_at) AS next FROM webhook_deliveries
         WHERE ${PENDING} AND workspace_id = $1 GROUP BY endpoint_id`,
        [workspaceId],
      ),
    ]);
    const next = new Map(rows.map((r) => [r.endpoint_id, r.next]));
    return endpoints.map((e) => endpointView(e, next.get(e.id) ?? null));
  }

  getWebhook(workspaceId: string, id: string) {
    return this.present(this.pool, workspaceId, id);
  }

  async createWebhook(workspaceId: string, body: NewWebhook) {
    const { row, secret } = await this.insert(workspaceId, "webhook", body);
    return { ...endpointView(row, null), secret };
  }

  updateWebhook(workspaceId: string, id: string, patch: EndpointPatch) {
    return withPgTransaction(this.pool, async (c) => {
      await this.patch(c, workspaceId, "webhook", id, patch);
      return this.present(c, workspaceId, id);
    });
  }

  deleteWebhook(workspaceId: string, id: string) {
    return this.remove(workspaceId, "webhook", id);
  }

  async rotateSecret(workspaceId: string, id: string) {
    // Found before sealing, as on SQLite: with the key file lost, an unknown id is still a 404.
    await this.endpoint(this.pool, workspaceId, "webhook", id);
    const secret = newSigningSecret();
    const { rowCount } = await this.pool.query(
      "UPDATE webhook_endpoints SET secret_sealed = $1 WHERE id = $2 AND workspace_id = $3 AND kind = 'webhook'",
      [this.secrets().seal(secret), id, workspaceId],
    );
    if (!rowCount) throw missing("webhook", id);
    return { id, secret };
  }

  async testWebhook(workspaceId: string, id: string): Promise<TestResult> {
    const { announced, deliveryId } = await withPgTransaction(this.pool, async (c) => {
      await this.endpoint(c, workspaceId, "webhook", id);
      const data = { webhookId: id, message: TEST_MESSAGE };
      const announced = await this.events.write(c, workspaceId, WEBHOOK_TEST, data);
      const { rows } = await c.query<{ id: string }>(
        "SELECT id FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2",
        [announced.id, id],
      );
      return { announced, deliveryId: rows[0]?.id };
    });
    this.events.announce(announced);
    return deliveryId ? { eventId: announced.id, deliveryId } : { eventId: announced.id };
  }

  async listDeliveries(workspaceId: string, webhookId: string, q: DeliveriesPage) {
    await this.endpoint(this.pool, workspaceId, "webhook", webhookId);
    const values: unknown[] = [webhookId];
    const where = ["endpoint_id = $1"];
    const add = (sql: string, v: unknown) => where.push(`${sql} $${values.push(v)}`);
    if (q.status) add("status =", q.status);
    if (q.type) add("event_type =", q.type);
    if (q.since) add("created_at >=", Date.parse(q.since));
    if (q.before) add("id <", q.before);
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT * FROM webhook_deliveries WHERE ${where.join(" AND ")}
       ORDER BY id DESC LIMIT $${values.push(q.limit)}`,
      values,
    );
    return rows.map(deliveryView);
  }

  getDelivery(workspaceId: string, webhookId: string, deliveryId: string) {
    return withPgTransaction(
      this.pool,
      (c) => this.readDelivery(c, workspaceId, webhookId, deliveryId),
      { isolation: "repeatable read" },
    );
  }

  private async readDelivery(
    c: PgClient,
    workspaceId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<WebhookDeliveryDetail> {
    const endpoint = await this.endpoint(c, workspaceId, "webhook", webhookId);
    const found = await c.query<DeliveryRow>(
      "SELECT * FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2",
      [deliveryId, webhookId],
    );
    const delivery = found.rows[0];
    if (!delivery) throw deliveryMissing(deliveryId);
    const attempts = await c.query<AttemptRow>(
      "SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt",
      [deliveryId],
    );
    const event = await c.query<EventRow>("SELECT * FROM events WHERE id = $1", [
      delivery.event_id,
    ]);
    const read = { endpoint, delivery, attempts: attempts.rows, event: event.rows[0]! };
    return deliveryDetail(this.secrets(), read, this.clock.now());
  }

  retryDelivery(
    workspaceId: string,
    webhookId: string,
    deliveryId: string,
    attempt: (deliveryId: string) => Promise<boolean>,
  ) {
    return retryAndRead(
      () => this.getDelivery(workspaceId, webhookId, deliveryId),
      () => attempt(deliveryId),
      deliveryId,
    );
  }

  async listHooks(workspaceId: string): Promise<RestHook[]> {
    return (await this.list(workspaceId, "rest_hook")).map(hookView);
  }

  async createHook(workspaceId: string, body: { targetUrl: string; event: string }) {
    const { row, secret } = await this.insert(workspaceId, "rest_hook", {
      url: body.targetUrl,
      events: [body.event],
    });
    return { ...hookView(row), secret };
  }

  updateHook(workspaceId: string, id: string, patch: { status: "active" | "disabled" }) {
    return withPgTransaction(this.pool, async (c) => {
      await this.patch(c, workspaceId, "rest_hook", id, patch);
      return hookView(await this.endpoint(c, workspaceId, "rest_hook", id));
    });
  }

  deleteHook(workspaceId: string, id: string) {
    return this.remove(workspaceId, "rest_hook", id);
  }

  async latestEvents(workspaceId: string, type: string, limit: number): Promise<Event[]> {
    const { rows } = await this.pool.query<EventRow>(
      "SELECT * FROM events WHERE workspace_id = $1 AND type = $2 ORDER BY seq DESC LIMIT $3",
      [workspaceId, type, limit],
    );
    return rows.map(eventView);
  }
}
