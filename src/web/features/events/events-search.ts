import { streamEventTypesForFilter } from "../webhooks/components/event-types";

export interface EventsSearch {
  type?: string;
}

export function parseEventsSearch(search: Record<string, unknown>): EventsSearch {
  const type = typeof search.type === "string" ? search.type : undefined;
  return { type: type && streamEventTypesForFilter.includes(type) ? type : undefined };
}
