import type { EventEmitter } from "node:events";
import { EVENTS_RETENTION_DAYS } from "@/contract/events";
import {
  DELIVERY_HEADER,
  DELIVERY_TIMEOUT_MS,
  DISABLE_AFTER_FAILURES,
  EVENT_HEADER,
  MAX_ATTEMPTS,
  RETRY_SCHEDULE_MS,
  SIGNATURE_HEADER,
} from "@/contract/webhooks";
import type { Db } from "../../db/database";
import { stmt } from "../../db/statements";
import type { Clock } from "../../lib/clock";
import { toIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { Logger } from "../../lib/logger";
import type { RecordedEvent } from "../events/events.repository";
import { type AttemptOutcome, postWebhook } from "./http-delivery";
import { SecretBox } from "./secret-box";
import { signatureHeader } from "./signing";
import { type DeliveryRow, holdPending } from "./webhooks.repository";

export const USER_AGENT = "Consign-Webhooks/1.0";

export interface DispatcherOptions {
  timeoutMs?: number;
  concurrency?: number;
  /** Catches deliveries written by other processes (the members CLI), which cannot wake us. */
  pollMs?: number;
  leaseMs?: number;
}

interface DeliveryContext {
  url: string;
  kind: "webhook" | "rest_hook";
  secret_sealed: string;
  type: string;
  data: string;
  created_at: number;
  workspace_id: string;
}

export interface PreparedRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The durable webhook worker. Due attempts live in SQLite (`next_attempt_at`); a worker claims
 * them with a lease, so a restart neither loses an attempt (the lease expires and the row is
 * claimed again) nor runs one twice while its lease holds. Delivery is at least once: a process
 * that dies mid-request leaves a receiver that may see the attempt again, with the same event id.
 */
export class WebhookDispatcher {
  readonly secrets: SecretBox;
  readonly owner = `webhooks-${process.pid}-${newId()}`;
  /** Spec: 10 s. Tests shorten it to keep the timeout case fast. */
  timeoutMs: number;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = true;
  private timers: NodeJS.Timeout[] = [];
  private readonly onRecorded = (e: RecordedEvent) => {
    if (e.deliveries > 0) this.pump();
  };

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      log: Logger;
      bus: EventEmitter;
      dataDir: string;
      allowPrivate: boolean;
    },
    options: DispatcherOptions = {},
  ) {
    this.secrets = SecretBox.inDataDir(deps.dataDir);
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.concurrency = options.concurrency ?? 32;
    this.pollMs = options.pollMs ?? 500;
    this.leaseMs = options.leaseMs ?? 60_000;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.deps.bus.on("recorded", this.onRecorded);
    this.timers = [
      setInterval(() => this.pump(), this.pollMs),
      setInterval(() => this.guarded("prune", () => this.pruneExpired()), PRUNE_EVERY_MS),
    ];
    for (const t of this.timers) t.unref();
    this.guarded("prune", () => this.pruneExpired());
    this.pump();
  }

  /** Stops claiming and waits for attempts in flight (each bounded by the timeout). */
  async stop() {
    this.stopped = true;
    this.deps.bus.off("recorded", this.onRecorded);
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await Promise.allSettled([...this.inFlight]);
  }

  /** Claims and attempts every due delivery, waiting for each; tests drive the schedule with it. */
  async runDue(): Promise<number> {
    let attempted = 0;
    for (;;) {
      const batch = this.claim(this.concurrency);
      if (batch.length === 0) return attempted;
      await Promise.all(batch.map((d) => this.attempt(d, false)));
      attempted += batch.length;
    }
  }

  /**
   * The retry operation: one attempt now, whatever the delivery's status. False when another
   * attempt of it is in flight (its lease is held), in which case nothing is sent twice.
   */
  async retryNow(deliveryId: string): Promise<boolean> {
    const now = this.deps.clock.now();
    const row = stmt<[string, number, string, number], DeliveryRow>(
      this.deps.db,
      `UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ?
       WHERE id = ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?) RETURNING *`,
    ).get(this.owner, now + this.leaseMs, deliveryId, now);
    if (!row) return false;
    await this.attempt(row, true);
    return true;
  }

  /** The request an attempt of this delivery would send, signed with the current secret. */
  buildRequest(
    delivery: Pick<DeliveryRow, "id" | "event_id">,
    attempt: number,
    now: number,
  ): PreparedRequest | null {
    const ctx = stmt<[string], DeliveryContext>(
      this.deps.db,
      `SELECT e.url, e.kind, e.secret_sealed, ev.type, ev.data, ev.created_at, ev.workspace_id
       FROM webhook_deliveries d
       JOIN webhook_endpoints e ON e.id = d.endpoint_id
       JOIN events ev ON ev.id = d.event_id
       WHERE d.id = ?`,
    ).get(delivery.id);
    if (!ctx) return null;
    // The stored data is already JSON; splicing it in avoids a parse and re-serialise per attempt.
    const body = `{"id":${JSON.stringify(delivery.event_id)},"type":${JSON.stringify(ctx.type)},"createdAt":"${toIso(ctx.created_at)}","workspaceId":${JSON.stringify(ctx.workspace_id)},"data":${ctx.data},"delivery":{"id":${JSON.stringify(delivery.id)},"attempt":${attempt}}}`;
    const secret = this.secrets.open(ctx.secret_sealed);
    return {
      url: ctx.url,
      body,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        [SIGNATURE_HEADER]: signatureHeader(secret, body, Math.floor(now / 1000)),
        [EVENT_HEADER]: ctx.type,
        [DELIVERY_HEADER]: delivery.id,
      },
    };
  }

  /** Deletes events past retention; their deliveries and attempts go with them (cascade). */
  pruneExpired(): number {
    const cutoff = this.deps.clock.now() - EVENTS_RETENTION_DAYS * DAY_MS;
    const batch = stmt<[number]>(
      this.deps.db,
      "DELETE FROM events WHERE id IN (SELECT id FROM events WHERE created_at < ? LIMIT 2000)",
    );
    let removed = 0;
    for (;;) {
      const { changes } = batch.run(cutoff);
      removed += changes;
      if (changes === 0) return removed;
    }
  }

  /** A busy database (a long write by a CLI) must not take the process down: the next poll retries. */
  private guarded(what: string, work: () => unknown) {
    try {
      work();
    } catch (err) {
      this.deps.log.warn(`webhook ${what} failed; retrying on the next poll`, { err });
    }
  }

  private pump() {
    if (this.stopped) return;
    this.guarded("claim", () => this.claimAndAttempt());
  }

  private claimAndAttempt() {
    while (this.inFlight.size < this.concurrency) {
      const batch = this.claim(this.concurrency - this.inFlight.size);
      if (batch.length === 0) return;
      for (const d of batch) {
        const p: Promise<void> = this.attempt(d, false)
          .catch((err) => this.deps.log.error("webhook attempt crashed", { deliveryId: d.id, err }))
          .finally(() => {
            this.inFlight.delete(p);
            this.pump();
          });
        this.inFlight.add(p);
      }
    }
  }

  private claim(limit: number): DeliveryRow[] {
    const now = this.deps.clock.now();
    // A read first: an UPDATE takes the write lock even when nothing is due, twice a second.
    const due = stmt<[number, number], { one: number }>(
      this.deps.db,
      `SELECT 1 AS one FROM webhook_deliveries
       WHERE status = 'pending' AND held = 0 AND next_attempt_at <= ?
         AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
       LIMIT 1`,
    ).get(now, now);
    if (!due) return [];
    return stmt<[string, number, number, number, number], DeliveryRow>(
      this.deps.db,
      `UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ?
       WHERE id IN (
         SELECT id FROM webhook_deliveries
         WHERE status = 'pending' AND held = 0 AND next_attempt_at <= ?
           AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
         ORDER BY next_attempt_at LIMIT ?)
       RETURNING *`,
    ).all(this.owner, now + this.leaseMs, now, now, limit);
  }

  private async attempt(d: DeliveryRow, manual: boolean) {
    const attempt = d.attempts + 1;
    const startedAt = this.deps.clock.now();
    const request = this.buildRequest(d, attempt, startedAt);
    if (!request) return;
    const outcome = await postWebhook(request.url, request.body, request.headers, {
      timeoutMs: this.timeoutMs,
      allowPrivate: this.deps.allowPrivate,
    });
    this.settle(d, attempt, manual, startedAt, request, outcome);
  }

  private settle(
    d: DeliveryRow,
    attempt: number,
    manual: boolean,
    startedAt: number,
    request: PreparedRequest,
    outcome: AttemptOutcome,
  ) {
    const { db, clock, log } = this.deps;
    db.transaction(() => {
      const endpoint = stmt<[string], { status: string; failure_count: number; kind: string }>(
        db,
        "SELECT status, failure_count, kind FROM webhook_endpoints WHERE id = ?",
      ).get(d.endpoint_id);
      if (!endpoint) return;
      const failures = outcome.ok ? 0 : endpoint.failure_count + 1;
      // A REST-hook platform answers 410 Gone when its subscription no longer exists.
      const gone = endpoint.kind === "rest_hook" && outcome.statusCode === 410;
      const disable =
        endpoint.status === "active" &&
        (gone || (!outcome.ok && failures >= DISABLE_AFTER_FAILURES));
      const endpointActive = endpoint.status === "active" && !disable;

      let status: DeliveryRow["status"];
      let next = startedAt;
      if (outcome.ok) status = "delivered";
      // A manual resend of a settled delivery does not start the schedule again.
      else if (manual && d.status !== "pending") status = "failed";
      else if (attempt < MAX_ATTEMPTS) {
        status = "pending";
        next = startedAt + RETRY_SCHEDULE_MS[Math.min(attempt, RETRY_SCHEDULE_MS.length) - 1]!;
      } else status = "failed";

      const updated = stmt(
        db,
        `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, held = ?,
           last_status_code = ?, last_error = ?, delivered_at = coalesce(?, delivered_at),
           lease_owner = NULL, lease_expires_at = NULL
         WHERE id = ? AND lease_owner = ?`,
      ).run(
        status,
        attempt,
        next,
        endpointActive ? 0 : 1,
        outcome.statusCode,
        outcome.error,
        outcome.ok ? clock.now() : null,
        d.id,
        this.owner,
      );
      // Lost the lease (another worker took the row after it expired): its result stands.
      if (updated.changes === 0) return;
      stmt(
        db,
        `INSERT INTO webhook_attempts (delivery_id, attempt, manual, url, request_headers, request_body,
           started_at, duration_ms, status_code, error, response_body, response_truncated)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        d.id,
        attempt,
        manual ? 1 : 0,
        request.url,
        JSON.stringify(request.headers),
        request.body,
        startedAt,
        outcome.durationMs,
        outcome.statusCode,
        outcome.error,
        outcome.responseBody,
        outcome.responseTruncated ? 1 : 0,
      );
      stmt(
        db,
        "UPDATE webhook_endpoints SET failure_count = ?, status = ?, last_delivery_at = ? WHERE id = ?",
      ).run(failures, disable ? "disabled" : endpoint.status, startedAt, d.endpoint_id);
      if (disable) {
        holdPending(db, d.endpoint_id, true);
        log.warn("webhook endpoint disabled", {
          endpointId: d.endpoint_id,
          reason: gone ? "410 from a REST-hook target" : `${failures} consecutive failures`,
        });
      }
    })();
  }
}
