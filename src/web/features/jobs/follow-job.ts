import type { QueryClient } from "@tanstack/react-query";
import { create } from "zustand";
import type { BulkJob } from "@/contract/operations";
import { bulkJobQueryOptions } from "./api/get-bulk-job";
import { ACTIVE_POLL_MS } from "./api/jobs-keys";
import { isActive, isBulk, type Job } from "./job-model";

interface FollowedState {
  /** Jobs being followed, with the folder whose entries they change (its progress line). */
  followed: Record<string, { folder?: string }>;
  add(id: string, folder?: string): void;
  remove(id: string): void;
}

export const useFollowedJobs = create<FollowedState>()((set) => ({
  followed: {},
  add: (id, folder) => set((s) => ({ followed: { ...s.followed, [id]: { folder } } })),
  remove: (id) =>
    set((s) => {
      const { [id]: _gone, ...rest } = s.followed;
      return { followed: rest };
    }),
}));

interface StartedState {
  /** Jobs started in this tab, by when: the shell reports their end even if it never saw them run. */
  started: Record<string, { bulk: boolean; at: number; createdAt: string }>;
  add(job: Job): void;
  remove(id: string): void;
}

export const useStartedJobs = create<StartedState>()((set) => ({
  started: {},
  add: (job) =>
    set((s) => ({
      started: {
        ...s.started,
        [job.id]: { bulk: isBulk(job), at: Date.now(), createdAt: job.createdAt },
      },
    })),
  remove: (id) =>
    set((s) => {
      const { [id]: _gone, ...rest } = s.started;
      return { started: rest };
    }),
}));

/**
 * Tells the shell a job started here: its badge counts it at once, and its end is reported
 * however short the job (one that ends between two polls is never seen running).
 */
export const jobStarted = (job: Job) => useStartedJobs.getState().add(job);

/**
 * Jobs whose end the caller that followed them reports: kept after the follow ends, since the
 * shell may notice the end after that (and would say it twice).
 */
const reportedByCaller = new Set<string>();
export const callerReportsEnd = (id: string) => reportedByCaller.has(id);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Watches one bulk job until it ends and resolves with its final record. A promise rather than
 * a component's query: the person may leave the page that started it and still be told. Each
 * reading goes through the job's query, so a banner or the job centre showing it stays current;
 * `onProgress` runs when the counters move (callers refresh what the job is changing).
 */
export async function followBulkJob(
  queryClient: QueryClient,
  workspaceId: string,
  job: BulkJob,
  o: { folder?: string; onProgress?(job: BulkJob): void } = {},
): Promise<BulkJob> {
  useFollowedJobs.getState().add(job.id, o.folder);
  reportedByCaller.add(job.id);
  let current = job;
  try {
    while (isActive(current)) {
      await sleep(ACTIVE_POLL_MS);
      const next = await queryClient.fetchQuery({
        ...bulkJobQueryOptions(workspaceId, job.id),
        staleTime: 0,
      });
      if (next.done !== current.done || next.failed !== current.failed) o.onProgress?.(next);
      current = next;
    }
    return current;
  } finally {
    useFollowedJobs.getState().remove(job.id);
  }
}
