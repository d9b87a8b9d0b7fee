import type { TrashItem } from "@/contract/files";
import { formatCount } from "@/web/lib/format";
import type { BatchOutcome } from "./api/run-each";

export interface Report {
  title: string;
  description?: string;
  tone?: "default" | "error";
}

export const describeItems = (items: TrashItem[]) =>
  items.length === 1 ? `“${items[0]!.name}”` : `${formatCount(items.length)} items`;

/** Renames named in full up to this many; the rest are counted. */
const RENAMES_NAMED = 3;

/** Which restored items had to take another name, and which: the original path, then the new. */
function describeRenames(items: Map<string, TrashItem>, renamed: { id: string; path: string }[]) {
  const named = renamed.slice(0, RENAMES_NAMED).flatMap(({ id, path }) => {
    const item = items.get(id);
    return item ? [`“${item.path}” is back as “${path}”`] : [];
  });
  if (named.length === 0) return "";
  if (renamed.length === 1) return `${named[0]}: its path is taken.`;
  const more = renamed.length - named.length;
  return `Renamed because their paths are taken: ${named.join("; ")}${more > 0 ? `; and ${formatCount(more)} more` : ""}.`;
}

/**
 * What a batch of restores or purges did, for a toast: a partial failure names the first reason
 * and what did get done; a restore that had to rename an item says which, and to what.
 */
export function batchReport(
  verb: { past: string; base: string },
  items: TrashItem[],
  outcome: BatchOutcome & { renamed?: { id: string; path: string }[] },
  describeError: (error: unknown) => string,
): Report {
  const byId = new Map(items.map((i) => [i.id, i]));
  const done = outcome.done.flatMap((id) => byId.get(id) ?? []);
  const renames = describeRenames(byId, outcome.renamed ?? []);
  if (outcome.failed.length === 0) {
    return { title: `${verb.past} ${describeItems(done)}`, description: renames || undefined };
  }
  const failed = outcome.failed.flatMap(({ id }) => byId.get(id) ?? []);
  const parts = [
    describeError(outcome.failed[0]!.error),
    done.length ? `${verb.past} ${describeItems(done)}.` : "",
    renames,
  ];
  return {
    title: `Could not ${verb.base} ${describeItems(failed)}`,
    description: parts.filter(Boolean).join(" "),
    tone: "error",
  };
}
