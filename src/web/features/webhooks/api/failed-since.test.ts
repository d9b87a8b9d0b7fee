import { describe, expect, it } from "vitest";
import {
  DELIVERIES_PAGE_MAX,
  type DeliveryStatus,
  type WebhookDelivery,
} from "@/contract/webhooks";
import { type FailedSinceQuery, listFailedSinceLastDelivered } from "./failed-since";

const t0 = Date.parse("2026-06-01T12:00:00Z");
const delivery = (n: number, status: DeliveryStatus, atMs = t0 + n * 1000): WebhookDelivery => ({
  id: `d${String(n).padStart(6, "0")}`,
  eventId: `e${n}`,
  type: "member.joined",
  status,
  attempts: 1,
  nextAttemptAt: new Date(atMs).toISOString(),
  lastStatusCode: status === "delivered" ? 200 : 500,
  lastError: status === "delivered" ? null : "HTTP 500",
  deliveredAt: null,
  createdAt: new Date(atMs).toISOString(),
});

/** GET …/deliveries as the reference service answers it: filters, then newest first by id. */
function service(all: WebhookDelivery[]) {
  const calls: FailedSinceQuery[] = [];
  const list = async (q: FailedSinceQuery) => {
    calls.push(q);
    return all
      .filter((d) => d.status === q.status)
      .filter((d) => !q.since || Date.parse(d.createdAt) >= Date.parse(q.since))
      .filter((d) => !q.before || d.id < q.before)
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .slice(0, q.limit);
  };
  return { list, calls };
}

describe("listFailedSinceLastDelivered", () => {
  it("finds every failed delivery after the last delivered one, across pages", async () => {
    const all = [delivery(1, "failed"), delivery(2, "delivered")];
    // Far more than one page of deliveries, most of them pending, with 450 failures among them.
    for (let n = 3; n < 3 + 1800; n++) all.push(delivery(n, n % 4 === 0 ? "failed" : "pending"));
    const { list, calls } = service(all);

    const failed = await listFailedSinceLastDelivered(list);
    expect(failed).toHaveLength(450);
    expect(failed.every((d) => d.status === "failed")).toBe(true);
    expect(failed.map((d) => d.id)).not.toContain("d000001");
    expect(failed[0]!.id > failed[failed.length - 1]!.id).toBe(true);
    expect(calls[0]).toEqual({ status: "delivered", limit: 1 });
    expect(calls.slice(1).map((c) => c.before)).toEqual([
      undefined,
      failed[DELIVERIES_PAGE_MAX - 1]!.id,
      failed[2 * DELIVERIES_PAGE_MAX - 1]!.id,
    ]);
    expect(calls.slice(1).every((c) => c.since === all[1]!.createdAt)).toBe(true);
  });

  it("takes every failure when nothing was ever delivered, and leaves out one made before the last delivered in the same millisecond", async () => {
    expect(await listFailedSinceLastDelivered(service([delivery(1, "failed")]).list)).toHaveLength(
      1,
    );
    const same = [
      delivery(1, "failed", t0),
      delivery(2, "delivered", t0),
      delivery(3, "failed", t0),
    ];
    const failed = await listFailedSinceLastDelivered(service(same).list);
    expect(failed.map((d) => d.id)).toEqual(["d000003"]);
  });

  it("stops when a service without the paging extension answers the same page again", async () => {
    const page = Array.from({ length: DELIVERIES_PAGE_MAX }, (_, i) =>
      delivery(DELIVERIES_PAGE_MAX - i, "failed"),
    );
    let calls = 0;
    const failed = await listFailedSinceLastDelivered(async () => {
      calls++;
      return page;
    });
    expect(calls).toBe(3);
    expect(new Set(failed.map((d) => d.id)).size).toBe(failed.length);
  });
});
