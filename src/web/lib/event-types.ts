import { eventCatalogue, WEBHOOK_TEST } from "@/contract/event-catalogue";

export interface EventTypeGroup {
  area: string;
  types: { type: string; description: string }[];
}

const known = new Map<string, { area: string; description: string }>([
  ...eventCatalogue.map((e) => [e.type, e] as const),
  [WEBHOOK_TEST, { area: "Webhooks", description: "A test sent from Webhooks" }],
]);

/**
 * Event types by area, for pickers and filters: the catalogue's areas in its order, then types
 * this build does not know (a newer service's) under their prefix (`job.*`), so nothing listed
 * is ever left out or lumped together.
 */
export function groupEventTypes(types: readonly string[]): EventTypeGroup[] {
  const groups = new Map<string, EventTypeGroup["types"]>();
  for (const e of known.values()) groups.set(e.area, []);
  for (const type of types) {
    const entry = known.get(type);
    const area = entry?.area ?? `${type.split(".")[0]}.*`;
    if (!groups.has(area)) groups.set(area, []);
    groups.get(area)!.push({ type, description: entry?.description ?? "" });
  }
  return [...groups]
    .filter(([, list]) => list.length > 0)
    .map(([area, list]) => ({ area, types: list }));
}
