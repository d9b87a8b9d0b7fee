import { DELIVERIES_PAGE_MAX } from "@/contract/rules";
import type { DeliveryStatus, WebhookDelivery } from "@/contract/webhooks";

export type FailedSinceQuery = {
  status: DeliveryStatus;
  since?: string;
  before?: string;
  limit: number;
};

type ListDeliveries = (query: FailedSinceQuery) => Promise<WebhookDelivery[]>;

/**
 * The failed deliveries newer than the last one that got through, newest first: the outage a
 * person recovers from, not every failure ever. The service filters them and they are paged with
 * `before` to the end, so none is missed however many deliveries came in between.
 */
export async function listFailedSinceLastDelivered(
  list: ListDeliveries,
): Promise<WebhookDelivery[]> {
  const [lastDelivered] = await list({ status: "delivered", limit: 1 });
  const failed: WebhookDelivery[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await list({
      status: "failed",
      since: lastDelivered?.createdAt,
      before,
      limit: DELIVERIES_PAGE_MAX,
    });
    // A service without the paging extension answers the same page again: stop, not loop.
    const cursor = before;
    if (cursor !== undefined && page.some((d) => d.id >= cursor)) return failed;
    // A service without the filter extensions answers every status. And `since` is a time: one
    // made in the same millisecond as the last delivered one is told apart by its id, which
    // orders deliveries as the list does.
    failed.push(
      ...page.filter((d) => d.status === "failed" && (!lastDelivered || d.id > lastDelivered.id)),
    );
    const last = page[page.length - 1];
    if (page.length < DELIVERIES_PAGE_MAX || !last) return failed;
    before = last.id;
  }
}
