import type { DeliveryFilters } from "./api/webhooks-keys";

const oneOf = <T extends string>(values: readonly T[], v: unknown): T | undefined =>
  values.includes(v as T) ? (v as T) : undefined;

export interface WebhooksSearch {
  tab?: "signatures";
}

export function parseWebhooksSearch(search: Record<string, unknown>): WebhooksSearch {
  return { tab: oneOf(["signatures"] as const, search.tab) };
}

export interface DeliveriesSearch extends DeliveryFilters {
  /** The delivery open in the drawer. */
  delivery?: string;
}

export function parseDeliveriesSearch(search: Record<string, unknown>): DeliveriesSearch {
  const text = (v: unknown) => (typeof v === "string" && /^[\w.-]{1,64}$/.test(v) ? v : undefined);
  return {
    status: oneOf(["pending", "delivered", "failed"] as const, search.status),
    type: text(search.type),
    window: oneOf(["1h", "24h", "7d"] as const, search.window),
    delivery: text(search.delivery),
  };
}
