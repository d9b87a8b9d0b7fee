import { formatCount } from "@/browser/format";
import type { TrashItem } from "@/contract/files";
import type { BulkJob } from "@/contract/operations";

export interface Report {
  title: string;
  description?: string;
  tone?: "default" | "error";
}

export const describeItems = (items: TrashItem[]) =>
  items.length === 1 ? `“${items[0]!.name}”` : `${formatCount(items.length)} items`;

const describeCount = (n: number) => `${formatCount(n)} item${n === 1 ? "" : "s"}`;

/** Renames named in full up to this many; the rest are counted. */
const RENAMES_NAMED = 3;

/** Which restored items had to take another name, and which: the original path, then the new. */
function describeRenames(items: Map<string, TrashItem>, renamed: Renamed[]) {
  const named = renamed.slice(0, RENAMES_NAMED).flatMap(({ itemId, path }) => {
    const item = items.get(itemId);
    return item ? [`“${item.path}” is back as “${path}”`] : [];
  });
  if (named.length === 0) return "";
  if (renamed.length === 1) return `${named[0]}: its path is taken.`;
  const more = renamed.length - named.length;
  return `Renamed because their paths are taken: ${named.join("; ")}${more > 0 ? `; and ${formatCount(more)} more` : ""}.`;
}

interface Renamed {
  itemId: string;
  path: string;
}

/**
 * Items a restore job put back under another name. Not in the contract's BulkJob: a service
 * that reports them (`renamed`, as `{itemId, path}`) gets them named; others are read as none.
 */
function renamesOf(job: object): Renamed[] {
  const renamed = (job as { renamed?: unknown }).renamed;
  return Array.isArray(renamed)
    ? renamed.filter(
        (r): r is Renamed => typeof r?.itemId === "string" && typeof r?.path === "string",
      )
    : [];
}

/**
 * What a restore or purge job did, for a toast, naming the items when they are the ones picked
 * (a filter selection may have reached more): a failure leads with the first reason, then what
 * did get done.
 */
export function jobReport(
  verb: { past: string; base: string },
  items: TrashItem[],
  job: Pick<BulkJob, "status" | "done" | "failed" | "failures" | "error">,
): Report {
  const byId = new Map(items.map((i) => [i.id, i]));
  const done =
    job.done === items.length && job.failed === 0 ? describeItems(items) : describeCount(job.done);
  if (job.status === "cancelled")
    return {
      title: `Cancelled: ${verb.past.toLowerCase()} ${describeCount(job.done)} before it stopped`,
    };
  const renames = describeRenames(byId, renamesOf(job));
  if (job.failed === 0 && job.status !== "failed")
    return { title: `${verb.past} ${done}`, description: renames || undefined };
  const first = job.failures[0];
  const failedItem = job.failed === 1 && first ? byId.get(first.target) : undefined;
  return {
    title: `Could not ${verb.base} ${failedItem ? `“${failedItem.name}”` : job.failed > 0 ? describeCount(job.failed) : describeItems(items)}`,
    description: [first?.message ?? job.error, job.done > 0 ? `${verb.past} ${done}.` : "", renames]
      .filter(Boolean)
      .join(" "),
    tone: "error",
  };
}
