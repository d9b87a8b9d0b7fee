import { formatCount } from "@/browser/format";
import type { BulkJob, CreateBulkJobBody, Operation } from "@/contract/operations";
import { baseName } from "@/contract/rules";

/** A move or copy job or a bulk job, as the job centre lists them. */
export type Job = Operation | BulkJob;

export const isActive = (job: Pick<Job, "status">) =>
  job.status === "queued" || job.status === "running";

export const isBulk = (job: Job): job is BulkJob => job.kind === "bulk";

/**
 * Every job once (a job in two lists keeps the first, so pass the fresher list first), active
 * ones on top, then newest first.
 */
export function mergeJobs(...lists: (readonly Job[] | undefined)[]): Job[] {
  const byId = new Map<string, Job>();
  for (const list of lists)
    for (const job of list ?? []) if (!byId.has(job.id)) byId.set(job.id, job);
  return [...byId.values()].sort(
    (a, b) => Number(isActive(b)) - Number(isActive(a)) || b.createdAt.localeCompare(a.createdAt),
  );
}

/**
 * Whether an active list read with `limit` shows a job created at `createdAt` while it is still
 * active. One shorter than its limit holds every active job; a full one (newest first) only
 * those created after its last, so a job older than that may be running unlisted. Undefined:
 * the list has not been read.
 */
export function listShows(list: readonly Job[] | undefined, limit: number, createdAt: string) {
  if (!list) return false;
  if (list.length < limit) return true;
  const last = list.at(-1);
  return last !== undefined && createdAt > last.createdAt;
}

/** How far a job is: items for bulk work, bytes for a move or copy (files when it has none). */
export function progressOf(job: Job): {
  done: number;
  total: number | null;
  unit: "items" | "bytes";
} {
  if (isBulk(job)) return { done: job.done + job.failed, total: job.total, unit: "items" };
  if (job.bytesTotal > 0) return { done: job.bytesDone, total: job.bytesTotal, unit: "bytes" };
  return { done: job.filesDone, total: job.filesTotal, unit: "items" };
}

/** Whole percent, or null while the total is unknown. A finished job is 100 % by definition. */
export function percentOf(job: Job): number | null {
  if (job.status === "completed") return 100;
  const { done, total } = progressOf(job);
  if (total === null) return null;
  if (total === 0) return 0;
  return Math.min(100, Math.floor((done / total) * 100));
}

const actionLabels: Record<BulkJob["action"], string> = {
  trash: "Move to trash",
  delete: "Delete permanently",
  restore: "Restore",
  purge: "Purge",
};

export const kindLabel = (job: Job) =>
  isBulk(job) ? actionLabels[job.action] : job.kind === "move" ? "Move" : "Copy";

/** "“cut.mov”" for one item, "N items" for more. */
export const describeCount = (n: number, onlyPath?: string) =>
  n === 1 && onlyPath ? `“${baseName(onlyPath)}”` : `${formatCount(n)} item${n === 1 ? "" : "s"}`;

/**
 * What a job works on, in a line. A bulk job's record names no selection in the contract; a
 * service that adds one (`selection`, as it was sent) gets it summarised, others get the count.
 */
export function describeTarget(job: Job): string {
  if (!isBulk(job)) {
    const what = describeCount(job.items.length, job.items[0]?.path);
    return `${what} to ${job.destination ? `“${job.destination}”` : "the workspace root"}`;
  }
  const selection = (job as { selection?: unknown }).selection;
  const summary = selection ? describeSelection(selection as CreateBulkJobBody["selection"]) : null;
  return summary ?? (job.total === null ? "Counting the items…" : describeCount(job.total));
}

/** A selection as sent in a bulk body, in a few words; null for a shape it does not know. */
export function describeSelection(selection: CreateBulkJobBody["selection"]): string | null {
  if ("paths" in selection && Array.isArray(selection.paths))
    return describeCount(selection.paths.length, selection.paths[0]);
  if ("itemIds" in selection && Array.isArray(selection.itemIds))
    return `${formatCount(selection.itemIds.length)} trash item${selection.itemIds.length === 1 ? "" : "s"}`;
  const except = (n: number) => (n > 0 ? ` except ${formatCount(n)}` : "");
  if ("folder" in selection && Array.isArray(selection.allExcept))
    return `Everything in ${selection.folder ? `“${selection.folder}”` : "the workspace root"}${except(selection.allExcept.length)}`;
  if ("filter" in selection && Array.isArray(selection.allExcept)) {
    const f = selection.filter ?? {};
    const parts = [
      f.q ? `matching “${f.q}”` : "",
      f.folder ? `from “${f.folder}”` : "",
      f.deletedAfter ? "deleted recently" : "",
    ].filter(Boolean);
    return `Trash items${parts.length ? ` ${parts.join(", ")}` : ""}${except(selection.allExcept.length)}`;
  }
  return null;
}

/** "Moving 3 items…", for the toast a job's start shows. */
export function startedTitle(job: Job, count: number, onlyPath?: string): string {
  const what = describeCount(count, onlyPath);
  if (!isBulk(job)) return `${job.kind === "move" ? "Moving" : "Copying"} ${what}…`;
  const verbs: Record<BulkJob["action"], string> = {
    trash: `Moving ${what} to the trash…`,
    delete: `Deleting ${what} permanently…`,
    restore: `Restoring ${what}…`,
    purge: `Purging ${what}…`,
  };
  return verbs[job.action];
}

/** "Moved 3 items to the trash", or what failed, for the toast a job's end shows. */
export function finishedReport(job: Job): { title: string; description?: string; tone?: "error" } {
  const label = kindLabel(job);
  if (job.status === "cancelled") return { title: `${label}: cancelled` };
  if (isBulk(job)) {
    const done = describeCount(job.done);
    const past: Record<BulkJob["action"], string> = {
      trash: `Moved ${done} to the trash`,
      delete: `Deleted ${done} permanently`,
      restore: `Restored ${done}`,
      purge: `Purged ${done}`,
    };
    if (job.status === "failed" || job.failed > 0) {
      const first = job.failures[0];
      return {
        title: `${label}: ${formatCount(job.failed)} failed`,
        description: [
          job.error,
          first ? `${first.target}: ${first.message}` : "",
          `${past[job.action]}.`,
        ]
          .filter(Boolean)
          .join(" "),
        tone: "error",
      };
    }
    return { title: past[job.action] };
  }
  if (job.status === "failed")
    return { title: `${label} failed`, description: job.error ?? undefined, tone: "error" };
  const what = describeCount(job.items.length, job.items[0]?.path);
  return { title: `${job.kind === "move" ? "Moved" : "Copied"} ${what}` };
}
