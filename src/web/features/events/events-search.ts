import { streamEventTypes } from "@/contract/event-catalogue";

export interface EventsSearch {
  type?: string;
}

/** The search as the address has it; the page parses it. */
export type RawEventsSearch = Record<string, unknown>;

export function parseEventsSearch(search: Record<string, unknown>): EventsSearch {
  const type = typeof search.type === "string" ? search.type : undefined;
  return { type: type && streamEventTypes.includes(type) ? type : undefined };
}
