import { DELIVERY_TIMEOUT_MS } from "@/contract/webhooks";
import type { Db } from "@/server/db/database";
import type { Clock } from "@/server/lib/clock";
import type { Logger } from "@/server/lib/logger";
import type { AnnouncedEvent, EventRecorder } from "@/server/modules/events/events.repository";
import type { DeliveryRow } from "./deliveries.repository";
import { enqueueDeliveries } from "./deliveries.repository";
import { type DeliveryClaims, SqliteDeliveryClaims } from "./delivery-claims";
import { type AttemptOutcome, postWebhook } from "./http-delivery";
import { SecretBox } from "./secret-box";
import { buildRequest } from "./signing";
import { anyEndpointExists, latestSealedSecret } from "./webhooks.repository";

export interface DispatcherOptions {
  timeoutMs?: number;
  concurrency?: number;
  /** Catches deliveries written by other processes (the members CLI), which cannot wake us. */
  pollMs?: number;
  leaseMs?: number;
}

/**
 * The durable webhook worker: a lease loop of its own beside the job runner, because an event's
 * first attempt must leave within milliseconds of its commit (docs/architecture.md). Due
 * attempts live in SQLite (`next_attempt_at`); each pass claims them (delivery-claims.ts), signs
 * (signing.ts), sends (http-delivery.ts) and settles the outcome (delivery-outcome.ts). Delivery
 * is at least once: a process that dies mid-request leaves a receiver that may see the attempt
 * again, with the same event id.
 */
export class WebhookDispatcher {
  readonly secrets: SecretBox;
  /** Spec: 10 s. Tests shorten it to keep the timeout case fast. */
  timeoutMs: number;
  private readonly claims: DeliveryClaims;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  /** The claim pass running, if any: one at a time, so two cannot both fill the same free slots. */
  private claiming: Promise<void> | null = null;
  /** Set when a pump arrives during a pass, which then runs once more. */
  private pumpAgain = false;
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private readonly onRecorded = (e: AnnouncedEvent) => {
    if (e.fannedOut > 0) this.pump();
  };

  /**
   * Registers the webhooks fan-out with the recorder: every process that records events (the
   * service, the CLIs) builds a dispatcher, started or not, so every event gets its deliveries.
   */
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      log: Logger;
      events: EventRecorder;
      dataDir: string;
      allowPrivate: boolean;
    },
    options: DispatcherOptions = {},
  ) {
    deps.events.addFanOut(enqueueDeliveries);
    this.secrets = SecretBox.inDataDir(deps.dataDir, () => anyEndpointExists(deps.db));
    this.claims = new SqliteDeliveryClaims(deps.db, deps.log, options.leaseMs ?? 60_000);
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.concurrency = options.concurrency ?? 32;
    this.pollMs = options.pollMs ?? 500;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.deps.events.bus.on("recorded", this.onRecorded);
    this.timer = setInterval(() => this.pump(), this.pollMs);
    this.timer.unref();
    this.checkSecrets();
    this.pump();
  }

  /** Stops claiming and waits for attempts in flight (each bounded by the timeout). */
  async stop() {
    this.stopped = true;
    this.deps.events.bus.off("recorded", this.onRecorded);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.claiming;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Claims and attempts every due delivery, waiting for each; tests drive the schedule with it. */
  async runDue(): Promise<number> {
    let attempted = 0;
    for (;;) {
      const batch = await this.claims.claimDue(this.concurrency, this.deps.clock.now());
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
    const row = await this.claims.claimOne(deliveryId, this.deps.clock.now());
    if (!row) return false;
    await this.attempt(row, true);
    return true;
  }

  /**
   * Every attempt fails while the secrets cannot be opened, so say so once at start-up, loudly,
   * rather than only in each delivery's attempt log.
   */
  private checkSecrets() {
    // A read: under WAL it never waits for another process's write.
    const sealed = latestSealedSecret(this.deps.db);
    if (sealed === undefined) return;
    try {
      this.secrets.open(sealed);
    } catch (err) {
      this.deps.log.error(
        "webhook signing secrets cannot be opened: every attempt fails (recorded as 'Signing failed') until the key file is restored",
        { err },
      );
    }
  }

  /** A busy database (a long write by a CLI) must not take the process down: the next poll retries. */
  private pump() {
    if (this.stopped) return;
    if (this.claiming) {
      this.pumpAgain = true;
      return;
    }
    this.claiming = this.claimAndAttempt()
      .catch((err) =>
        this.deps.log.warn("webhook claim failed; retrying on the next poll", { err }),
      )
      .finally(() => {
        this.claiming = null;
        if (!this.pumpAgain) return;
        this.pumpAgain = false;
        this.pump();
      });
  }

  private async claimAndAttempt() {
    while (!this.stopped && this.inFlight.size < this.concurrency) {
      const batch = await this.claims.claimDue(
        this.concurrency - this.inFlight.size,
        this.deps.clock.now(),
      );
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

  /** Signs, sends and settles one attempt of a delivery that claims leased. */
  private async attempt(d: DeliveryRow, manual: boolean) {
    const { db, clock } = this.deps;
    const attempt = d.attempts + 1;
    const startedAt = clock.now();
    const built = buildRequest(db, this.secrets, d, attempt, startedAt);
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
    await this.claims.settle(
      { delivery: d, attempt, manual, startedAt, request: built.request, outcome },
      clock.now(),
    );
  }
}
