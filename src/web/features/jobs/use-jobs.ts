import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { addSample, type Sample } from "@/browser/rate";
import { RECENT_LIMIT } from "./api/jobs-keys";
import { bulkJobsQueryOptions } from "./api/list-bulk-jobs";
import { operationsQueryOptions } from "./api/list-operations";
import { isActive, type Job, listShows, mergeJobs, progressOf } from "./job-model";

/**
 * The queued and running jobs of both kinds, polled while there are any (the shell's badge and
 * the job centre share these two queries, so the page adds no polling of its own).
 */
export function useActiveJobs(workspaceId: string) {
  const operations = useQuery(operationsQueryOptions(workspaceId, true));
  const bulk = useQuery(bulkJobsQueryOptions(workspaceId, true));
  const jobs = useMemo(
    () => mergeJobs(bulk.data, operations.data).filter(isActive),
    [bulk.data, operations.data],
  );
  const shows = useCallback(
    (job: { bulk: boolean; createdAt: string }) =>
      listShows(job.bulk ? bulk.data : operations.data, RECENT_LIMIT, job.createdAt),
    [bulk.data, operations.data],
  );
  return {
    jobs,
    /** A list came back full: more jobs may be active than `jobs` holds. */
    more: [bulk.data, operations.data].some((list) => (list?.length ?? 0) >= RECENT_LIMIT),
    /**
     * Whether the lists would show this job were it active: only then does its absence mean it
     * has ended (with more active than a page holds, the oldest are not listed at all).
     */
    shows,
    /** Both lists have answered at least once. */
    ready: operations.data !== undefined && bulk.data !== undefined,
    updatedAt: Math.max(operations.dataUpdatedAt, bulk.dataUpdatedAt),
    /** When both lists had last been read: a job started before then and not in them has ended. */
    checkedAt: Math.min(operations.dataUpdatedAt, bulk.dataUpdatedAt),
  };
}

/**
 * Every running and recent job: the active lists (fresh every second) take precedence over the
 * recent ones, which are read once and again when a job ends (the shell's tracker invalidates).
 */
export function useJobCentre(workspaceId: string) {
  const active = useActiveJobs(workspaceId);
  const operations = useQuery({
    ...operationsQueryOptions(workspaceId, false),
    refetchInterval: false,
  });
  const bulk = useQuery({ ...bulkJobsQueryOptions(workspaceId, false), refetchInterval: false });
  const jobs = useMemo(
    () => mergeJobs(active.jobs, bulk.data, operations.data),
    [active.jobs, bulk.data, operations.data],
  );
  const samples = useSamples(active.jobs, active.updatedAt);
  // A service without one of the two kinds (404) still shows the other's jobs.
  const error = operations.isError && bulk.isError ? operations.error : null;
  return {
    jobs,
    samples,
    isPending: operations.isPending && bulk.isPending,
    error,
    refetch: () => Promise.all([operations.refetch(), bulk.refetch()]),
  };
}

/** Counter readings per active job, one per poll, for the rate and ETA. */
function useSamples(jobs: Job[], at: number) {
  const [samples, setSamples] = useState<ReadonlyMap<string, Sample[]>>(new Map());
  useEffect(() => {
    if (!at) return;
    setSamples((previous) => {
      const next = new Map<string, Sample[]>();
      for (const job of jobs) {
        if (job.status !== "running") continue;
        next.set(job.id, addSample(previous.get(job.id) ?? [], { at, done: progressOf(job).done }));
      }
      return next;
    });
  }, [jobs, at]);
  return samples;
}
