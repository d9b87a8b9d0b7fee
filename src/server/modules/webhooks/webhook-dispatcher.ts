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
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import type { Clock } from "@/server/lib/clock";
import { toIso } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { Logger } from "@/server/lib/logger";
import type { RecordedEvent } from "@/server/modules/events/events.repository";
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

/** A request to send, or, when the secret cannot be opened, the unsigned request and why. */
export interface BuiltRequest {
  request: PreparedRequest;
  signingError: string | null;
}

interface Candidate {
  id: string;
  endpoint_id: string;
  failure_count: number;
}

const PRUNE_EVERY_MS = 3_600_000;
/** How many due rows a claim looks at per slot it fills, to pass over capped endpoints' rows. */
const CLAIM_WINDOW = 4;
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
  /** Attempts this process has in flight per endpoint, scheduled and manual alike. */
  private readonly inFlightByEndpoint = new Map<string, number>();
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
    this.secrets = SecretBox.inDataDir(
      deps.dataDir,
      () => stmt(deps.db, "SELECT 1 FROM webhook_endpoints LIMIT 1").get() !== undefined,
    );
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
    this.guarded("secret check", () => this.checkSecrets());
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
    this.countInFlight(row.endpoint_id, 1);
    await this.attempt(row, true);
    return true;
  }

  /** The request an attempt of this delivery would send, signed with the current secret. */
  buildRequest(
    delivery: Pick<DeliveryRow, "id" | "event_id">,
    attempt: number,
    now: number,
  ): BuiltRequest | null {
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
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "User-Agent": USER_AGENT,
    };
    let signingError: string | null = null;
    try {
      const secret = this.secrets.open(ctx.secret_sealed);
      headers[SIGNATURE_HEADER] = signatureHeader(secret, body, Math.floor(now / 1000));
    } catch (err) {
      signingError = err instanceof Error ? err.message : String(err);
    }
    headers[EVENT_HEADER] = ctx.type;
    headers[DELIVERY_HEADER] = delivery.id;
    return { request: { url: ctx.url, body, headers }, signingError };
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

  /**
   * Every attempt fails while the secrets cannot be opened, so say so once at start-up, loudly,
   * rather than only in each delivery's attempt log.
   */
  private checkSecrets() {
    const sealed = stmt<[], { secret_sealed: string }>(
      this.deps.db,
      "SELECT secret_sealed FROM webhook_endpoints ORDER BY id DESC LIMIT 1",
    ).get();
    if (!sealed) return;
    try {
      this.secrets.open(sealed.secret_sealed);
    } catch (err) {
      this.deps.log.error(
        "webhook signing secrets cannot be opened: every attempt fails (recorded as 'Signing failed') until the key file is restored",
        { err },
      );
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

  /**
   * Leases up to `limit` due deliveries, no more per endpoint than its remaining failures before
   * the twenty-failure rule disables it, so a burst to a dead endpoint cannot overshoot. Only a
   * window at the head of the due index is looked at: a scan of every pending row would cost
   * more than an attempt when a backlog builds up.
   */
  private claim(limit: number): DeliveryRow[] {
    const now = this.deps.clock.now();
    // A read first: an UPDATE takes the write lock even when nothing is due, twice a second.
    const candidates = stmt<[number, number, number], Candidate>(
      this.deps.db,
      `SELECT d.id, d.endpoint_id, e.failure_count
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.status = 'pending' AND d.held = 0 AND d.next_attempt_at <= ?
         AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ?)
       ORDER BY d.next_attempt_at LIMIT ?`,
    ).all(now, now, limit * CLAIM_WINDOW);
    const budget = new Map<string, number>();
    const picked: string[] = [];
    for (const c of candidates) {
      const left =
        budget.get(c.endpoint_id) ??
        DISABLE_AFTER_FAILURES -
          c.failure_count -
          (this.inFlightByEndpoint.get(c.endpoint_id) ?? 0);
      if (left <= 0) continue;
      budget.set(c.endpoint_id, left - 1);
      picked.push(c.id);
      if (picked.length === limit) break;
    }
    if (picked.length === 0) return [];
    // The conditions again: another process may have leased a row since the read.
    const rows = stmt<[string, number, string, number, number], DeliveryRow>(
      this.deps.db,
      `UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ?
       WHERE id IN (SELECT value FROM json_each(?))
         AND status = 'pending' AND held = 0 AND next_attempt_at <= ?
         AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
       RETURNING *`,
    ).all(this.owner, now + this.leaseMs, JSON.stringify(picked), now, now);
    for (const r of rows) this.countInFlight(r.endpoint_id, 1);
    return rows;
  }

  private countInFlight(endpointId: string, change: 1 | -1) {
    const n = (this.inFlightByEndpoint.get(endpointId) ?? 0) + change;
    if (n === 0) this.inFlightByEndpoint.delete(endpointId);
    else this.inFlightByEndpoint.set(endpointId, n);
  }

  /** Settles the attempt of a delivery leased by claim or retryNow, which counted it in flight. */
  private async attempt(d: DeliveryRow, manual: boolean) {
    try {
      const attempt = d.attempts + 1;
      const startedAt = this.deps.clock.now();
      const built = this.buildRequest(d, attempt, startedAt);
      if (!built) return;
      // Unsigned, the receiver would reject it: record a failure that keeps the schedule, so the
      // delivery is not re-claimed at every lease expiry without a trace.
      const outcome: AttemptOutcome = built.signingError
        ? {
            ok: false,
            statusCode: null,
            error: `Signing failed: ${built.signingError}`,
            durationMs: 0,
            responseBody: null,
            responseTruncated: false,
          }
        : await postWebhook(built.request.url, built.request.body, built.request.headers, {
            timeoutMs: this.timeoutMs,
            allowPrivate: this.deps.allowPrivate,
          });
      this.settle(d, attempt, manual, startedAt, built.request, outcome);
    } finally {
      // After settle, in the same turn: the failure it counted replaces this in-flight attempt.
      this.countInFlight(d.endpoint_id, -1);
    }
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
      // A failed resend of a settled delivery leaves it as it was: a delivered one was received
      // once (deliveredAt stays true), and a failed one does not start the schedule again.
      else if (manual && d.status !== "pending") status = d.status;
      // A manual attempt of a pending delivery is extra: the schedule keeps its time and its count.
      else if (manual) {
        status = "pending";
        next = d.next_attempt_at;
      } else {
        const scheduled =
          stmt<[string], { n: number }>(
            db,
            "SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id = ? AND manual = 0",
          ).get(d.id)!.n + 1;
        if (scheduled < MAX_ATTEMPTS) {
          status = "pending";
          next = startedAt + RETRY_SCHEDULE_MS[Math.min(scheduled, RETRY_SCHEDULE_MS.length) - 1]!;
        } else status = "failed";
      }

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
