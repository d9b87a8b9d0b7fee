import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import type { WebhookDelivery } from "@/contract/webhooks";
import { formatDateTime } from "@/web/lib/format";
import { DeliveryStatusBadge } from "./delivery-status";
import { formatCountdown, useNow } from "./use-now";

const ROW_HEIGHT = 52;

/** The log as one virtualized list; reaching its end loads the next page (the `before` cursor). */
export function DeliveryList({
  deliveries,
  hasMore,
  loadingMore,
  onLoadMore,
  onOpen,
  selectedId,
}: {
  deliveries: WebhookDelivery[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore(): void;
  onOpen(id: string): void;
  selectedId?: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const now = useNow();
  const virtualizer = useVirtualizer({
    count: deliveries.length + (hasMore ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= deliveries.length - 10) onLoadMore();
  }, [hasMore, loadingMore, lastIndex, deliveries.length, onLoadMore]);

  return (
    <div ref={scrollRef} className="min-h-0 flex-1 overflow-auto rounded-lg border border-border">
      <ul
        aria-label="Deliveries, newest first"
        className="relative w-full"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((item) => {
          const d = deliveries[item.index];
          return (
            <li
              key={d?.id ?? "more"}
              className="absolute inset-x-0 border-b border-border"
              style={{ height: item.size, transform: `translateY(${item.start}px)` }}
            >
              {d ? (
                <button
                  type="button"
                  onClick={() => onOpen(d.id)}
                  aria-current={d.id === selectedId || undefined}
                  className="grid size-full grid-cols-[6rem_minmax(0,1fr)_auto] items-center gap-3 px-3 text-left text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring sm:grid-cols-[6rem_minmax(0,1fr)_10rem_12rem]"
                >
                  <DeliveryStatusBadge status={d.status} />
                  <span className="min-w-0">
                    <span className="block truncate font-mono">{d.type}</span>
                    <span className="block truncate text-xs text-muted-foreground">
                      {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
                      {d.lastError
                        ? ` · ${d.lastError}`
                        : d.lastStatusCode
                          ? ` · HTTP ${d.lastStatusCode}`
                          : ""}
                    </span>
                  </span>
                  <span className="hidden text-xs text-muted-foreground sm:block">
                    {d.status === "pending" ? `Next ${formatCountdown(d.nextAttemptAt, now)}` : ""}
                  </span>
                  <span className="text-right text-xs text-muted-foreground">
                    {formatDateTime(d.createdAt)}
                  </span>
                </button>
              ) : (
                <p className="px-3 py-4 text-sm text-muted-foreground">Loading more…</p>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
