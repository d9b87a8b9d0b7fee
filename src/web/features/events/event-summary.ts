import type { Event } from "@/contract/events";

type Data = Record<string, unknown>;

const text = (v: unknown): v is string => typeof v === "string";
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.filter(text) : []);

/** A path and, where it helps, what it is to the event ("From", "Now"). */
export interface EventPath {
  label?: string;
  path: string;
}

/**
 * The paths an event is about, for its drawer: a rename's two ends, a renamed restore's original
 * and new path, or the `paths` file and transfer events carry (one event per request, so a
 * trash of fifty items lists fifty).
 */
export function eventPaths(event: Event): EventPath[] {
  const d = event.data as Data;
  if (event.type === "file.renamed" && text(d.from) && text(d.to)) {
    return [
      { label: "From", path: d.from },
      { label: "To", path: d.to },
    ];
  }
  const paths = texts(d.paths);
  if (event.type === "file.restored" && d.renamed === true && text(d.originalPath) && paths[0]) {
    return [
      { label: "Originally", path: d.originalPath },
      { label: "Now", path: paths[0] },
    ];
  }
  return paths.map((path) => ({ path }));
}

/** One line of context per event, from the members most types carry. */
export function eventSummary(event: Event): string {
  const d = event.data as Data;
  const [first, second] = eventPaths(event);
  if (first?.label && second) return `${first.path} → ${second.path}`;
  const paths = texts(d.paths);
  if (paths[0]) return paths.length > 1 ? `${paths[0]} and ${paths.length - 1} more` : paths[0];
  const member = d.member as { email?: string } | undefined;
  const parts = [d.message, d.path, d.title, d.folder, member?.email, d.shareId, d.transferId];
  return parts.find(text) ?? "";
}
