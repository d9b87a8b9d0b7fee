import { describe, expect, it } from "vitest";
import type { WebhookEndpoint } from "@/contract/webhooks";
import { deliveryTiming, endpointNextRetry, HELD_REASON } from "./delivery-timing";

const now = Date.parse("2026-05-10T12:00:00Z");
const in48s = new Date(now + 48_000).toISOString();

describe("deliveryTiming", () => {
  it("counts down to a pending delivery's next attempt while the endpoint is active", () => {
    expect(deliveryTiming({ status: "pending", nextAttemptAt: in48s }, "active", now)).toEqual({
      kind: "due",
      at: in48s,
      countdown: "in 48 s",
    });
  });

  it("calls a pending delivery of a disabled endpoint held, with the reason, not due", () => {
    expect(deliveryTiming({ status: "pending", nextAttemptAt: in48s }, "disabled", now)).toEqual({
      kind: "held",
      reason: HELD_REASON,
    });
  });

  it("has nothing to promise once a delivery is delivered or failed", () => {
    for (const status of ["delivered", "failed"] as const) {
      expect(deliveryTiming({ status, nextAttemptAt: in48s }, "disabled", now)).toEqual({
        kind: "settled",
      });
    }
  });
});

describe("endpointNextRetry", () => {
  const endpoint = (status: WebhookEndpoint["status"], nextAttemptAt: string | null) =>
    ({ status, nextAttemptAt }) as WebhookEndpoint;

  it("says held for a disabled endpoint's pending attempt, a countdown otherwise", () => {
    expect(endpointNextRetry(endpoint("active", in48s), now)).toBe("in 48 s");
    expect(endpointNextRetry(endpoint("disabled", in48s), now)).toBe("Held");
    expect(endpointNextRetry(endpoint("disabled", null), now)).toBe("—");
  });
});
