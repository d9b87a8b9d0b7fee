import { DISABLE_AFTER_FAILURES, MAX_ATTEMPTS, RETRY_SCHEDULE_MS } from "@/contract/webhooks";
import type { Db } from "@/server/db/database";
import type { Logger } from "@/server/lib/logger";
import {
  type AttemptRow,
  countScheduledAttempts,
  type DeliveryRow,
  holdPending,
  insertAttempt,
  saveDeliveryOutcome,
} from "./deliveries.repository";
import type { AttemptOutcome } from "./http-delivery";
import type { PreparedRequest } from "./signing";
import { type EndpointRow, endpointHealth, setEndpointHealth } from "./webhooks.repository";

export interface FinishedAttempt {
  /** The delivery as it was leased. */
  delivery: DeliveryRow;
  attempt: number;
  /** Made by the retry operation rather than the schedule. */
  manual: boolean;
  startedAt: number;
  request: PreparedRequest;
  outcome: AttemptOutcome;
}

/**
 * The delivery's state after an attempt. A success delivers it. A failed resend of a settled
 * delivery leaves it as it was: a delivered one was received once (deliveredAt stays), and a
 * failed one does not start the schedule again. A failed manual attempt of a pending delivery
 * is extra: the schedule keeps its time and count. A failed scheduled attempt moves to the next
 * slot of the retry schedule, or fails the delivery after the last.
 */
function nextDeliveryState(
  a: FinishedAttempt,
  scheduledBefore: () => number,
): { status: DeliveryRow["status"]; nextAttemptAt: number } {
  const d = a.delivery;
  if (a.outcome.ok) return { status: "delivered", nextAttemptAt: a.startedAt };
  if (a.manual && d.status !== "pending") return { status: d.status, nextAttemptAt: a.startedAt };
  if (a.manual) return { status: "pending", nextAttemptAt: d.next_attempt_at };
  const scheduled = scheduledBefore() + 1;
  if (scheduled >= MAX_ATTEMPTS) return { status: "failed", nextAttemptAt: a.startedAt };
  const gap = RETRY_SCHEDULE_MS[Math.min(scheduled, RETRY_SCHEDULE_MS.length) - 1]!;
  return { status: "pending", nextAttemptAt: a.startedAt + gap };
}

/**
 * The endpoint's failure count after an attempt, and whether it is disabled now: after twenty
 * consecutive failures, or at once when a REST-hook platform answers 410 Gone (its
 * subscription no longer exists).
 */
function nextEndpointState(
  endpoint: Pick<EndpointRow, "status" | "failure_count" | "kind">,
  outcome: AttemptOutcome,
) {
  const failures = outcome.ok ? 0 : endpoint.failure_count + 1;
  const gone = endpoint.kind === "rest_hook" && outcome.statusCode === 410;
  const disable =
    endpoint.status === "active" && (gone || (!outcome.ok && failures >= DISABLE_AFTER_FAILURES));
  const reason = gone ? "410 from a REST-hook target" : `${failures} consecutive failures`;
  return { failures, disable, reason };
}

/**
 * What an attempt writes, whichever engine writes it: the delivery's new state (releasing its
 * lease), the attempt log entry, and the endpoint's health.
 */
export function settlement(
  a: FinishedAttempt,
  endpoint: Pick<EndpointRow, "status" | "failure_count" | "kind">,
  scheduledBefore: () => number,
  now: number,
) {
  const health = nextEndpointState(endpoint, a.outcome);
  const delivery = {
    ...nextDeliveryState(a, scheduledBefore),
    attempts: a.attempt,
    held: endpoint.status !== "active" || health.disable,
    statusCode: a.outcome.statusCode,
    error: a.outcome.error,
    deliveredAt: a.outcome.ok ? now : null,
  };
  const attempt: AttemptRow = {
    delivery_id: a.delivery.id,
    attempt: a.attempt,
    manual: a.manual ? 1 : 0,
    url: a.request.url,
    request_headers: JSON.stringify(a.request.headers),
    request_body: a.request.body,
    started_at: a.startedAt,
    duration_ms: a.outcome.durationMs,
    status_code: a.outcome.statusCode,
    error: a.outcome.error,
    response_body: a.outcome.responseBody,
    response_truncated: a.outcome.responseTruncated ? 1 : 0,
  };
  const endpointAfter = {
    failureCount: health.failures,
    status: health.disable ? ("disabled" as const) : endpoint.status,
    lastDeliveryAt: a.startedAt,
  };
  return {
    delivery,
    attempt,
    endpoint: endpointAfter,
    disable: health.disable,
    reason: health.reason,
  };
}

/**
 * Records an attempt in one transaction (settlement() says what). Nothing is written when the
 * lease was lost: another worker took the row after it expired, and its result stands.
 * Immediate: it reads the endpoint before it writes, and with several processes on one database
 * a deferred transaction whose snapshot another process overtook fails at its first write
 * (SQLITE_BUSY_SNAPSHOT; seen in bench:scale), sending the attempt again after its lease.
 */
export function settleAttempt(db: Db, log: Logger, owner: string, a: FinishedAttempt, now: number) {
  const d = a.delivery;
  db.transaction(() => {
    const endpoint = endpointHealth(db, d.endpoint_id);
    if (!endpoint) return;
    const s = settlement(a, endpoint, () => countScheduledAttempts(db, d.id), now);
    if (!saveDeliveryOutcome(db, d.id, owner, s.delivery)) return;
    insertAttempt(db, s.attempt);
    setEndpointHealth(db, d.endpoint_id, s.endpoint);
    if (s.disable) {
      holdPending(db, d.endpoint_id, true);
      log.warn("webhook endpoint disabled", { endpointId: d.endpoint_id, reason: s.reason });
    }
  }).immediate();
}
