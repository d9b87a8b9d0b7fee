import { streamEventTypes } from "@/contract/rules";

export interface EventsSearch {
  type?: string;
}

export function parseEventsSearch(search: Record<string, unknown>): EventsSearch {
  const type = typeof search.type === "string" ? search.type : undefined;
  return { type: type && streamEventTypes.includes(type) ? type : undefined };
}
