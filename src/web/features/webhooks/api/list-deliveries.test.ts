import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "@/contract/webhooks";
import { deliveriesQueryOptions } from "./list-deliveries";

const delivery = (status: WebhookDelivery["status"], attempts: number) =>
  ({ id: "d1", status, attempts }) as WebhookDelivery;

const { refetchInterval } = deliveriesQueryOptions("w", "h", {});
type Interval = Extract<typeof refetchInterval, (...args: never[]) => unknown>;

/** How long the list waits before reading again, with `pages` loaded. */
function pollMs(pages: WebhookDelivery[][]) {
  if (typeof refetchInterval !== "function") throw new Error("expected an interval function");
  const query = { state: { data: { pages, pageParams: [] } } };
  return refetchInterval(query as unknown as Parameters<Interval>[0]);
}

describe("the deliveries list's polling", () => {
  it("reads a pending delivery's first attempt closely, and settled ones less often", () => {
    expect(pollMs([[delivery("pending", 0)]])).toBe(1_000);
    expect(pollMs([[delivery("delivered", 1)]])).toBe(5_000);
  });

  it("asks at most once a second however many pages are loaded (a refetch reads each page)", () => {
    const page = Array.from({ length: 100 }, () => delivery("delivered", 1));
    const pages = [[delivery("pending", 0), ...page.slice(1)], page, page, page, page];
    expect(pollMs(pages)).toBeGreaterThanOrEqual(pages.length * 1_000);
  });
});
