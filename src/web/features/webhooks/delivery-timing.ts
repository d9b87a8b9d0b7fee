import type { WebhookDelivery, WebhookEndpoint } from "@/contract/webhooks";
import { formatCountdown } from "./countdown";

export const HELD_REASON = "The endpoint is disabled: no attempt is made until it is re-enabled.";

/**
 * When a delivery is next attempted, as a person should read it: a disabled endpoint holds its
 * pending deliveries (the dispatcher skips them), so their due time would be a promise nobody
 * keeps; they are "held", with the reason.
 */
export type DeliveryTiming =
  | { kind: "held"; reason: string }
  | { kind: "due"; at: string; countdown: string }
  | { kind: "settled" };

export function deliveryTiming(
  delivery: Pick<WebhookDelivery, "status" | "nextAttemptAt">,
  endpointStatus: WebhookEndpoint["status"] | undefined,
  now: number,
): DeliveryTiming {
  if (delivery.status !== "pending") return { kind: "settled" };
  if (endpointStatus === "disabled") return { kind: "held", reason: HELD_REASON };
  return {
    kind: "due",
    at: delivery.nextAttemptAt,
    countdown: formatCountdown(delivery.nextAttemptAt, now),
  };
}

/** The endpoint's "Next retry": its earliest pending attempt, or held while it is disabled. */
export function endpointNextRetry(endpoint: WebhookEndpoint, now: number): string {
  if (!endpoint.nextAttemptAt) return "—";
  return endpoint.status === "disabled" ? "Held" : formatCountdown(endpoint.nextAttemptAt, now);
}
