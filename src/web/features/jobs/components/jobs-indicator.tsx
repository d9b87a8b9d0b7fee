import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useRouterState } from "@tanstack/react-router";
import { LoaderIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { filesKeys } from "@/web/features/files";
import { bulkJobQueryOptions } from "@/web/features/jobs/api/get-bulk-job";
import { operationQueryOptions } from "@/web/features/jobs/api/get-operation";
import { jobsKeys } from "@/web/features/jobs/api/jobs-keys";
import { useFollowedJobs } from "@/web/features/jobs/follow-job";
import { finishedReport, isBulk, type Job } from "@/web/features/jobs/job-model";
import { useActiveJobs } from "@/web/features/jobs/use-jobs";
import { formatCount } from "@/web/lib/format";
import { useWorkspaceId } from "@/web/stores/session-store";
import { toast } from "@/web/stores/toast-store";

/**
 * The shell's badge while jobs run (a link to the job centre), and the tracker that notices a
 * job ending: it refreshes the lists the job changed and, away from /jobs, says how it ended
 * (unless whoever started it reports that itself).
 */
export function JobsIndicator() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const onJobs = useRouterState({ select: (s) => s.location.pathname === "/jobs" });
  const { jobs, ready } = useActiveJobs(workspaceId);
  const previous = useRef<Map<string, Job> | null>(null);
  const onJobsRef = useRef(onJobs);
  onJobsRef.current = onJobs;

  useEffect(() => {
    if (!ready) return;
    const current = new Map(jobs.map((j) => [j.id, j]));
    const ended = previous.current
      ? [...previous.current.values()].filter((j) => !current.has(j.id))
      : [];
    previous.current = current;
    if (ended.length === 0) return;
    void queryClient.invalidateQueries({ queryKey: jobsKeys.all(workspaceId) });
    void queryClient.invalidateQueries({ queryKey: filesKeys.all(workspaceId) });
    for (const job of ended) {
      if (useFollowedJobs.getState().followed[job.id]) continue;
      const final = isBulk(job)
        ? queryClient.fetchQuery(bulkJobQueryOptions(workspaceId, job.id))
        : queryClient.fetchQuery(operationQueryOptions(workspaceId, job.id));
      final
        .then((done) => {
          if (onJobsRef.current) return;
          toast({
            ...finishedReport(done),
            action: {
              label: "View job",
              onClick: () => void navigate({ to: "/jobs", search: { job: done.id } }),
            },
          });
        })
        // The job centre still shows how it ended; a toast is not worth an error of its own.
        .catch(() => {});
    }
  }, [jobs, ready, queryClient, workspaceId, navigate]);

  if (jobs.length === 0) return null;
  const label = `${formatCount(jobs.length)} job${jobs.length === 1 ? "" : "s"} running`;
  return (
    <Link
      to="/jobs"
      aria-label={label}
      title={label}
      className="flex h-8 shrink-0 items-center gap-1 rounded-md border border-border px-1.5 text-sm font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <LoaderIcon
        aria-hidden="true"
        className="size-4 animate-spin text-link motion-reduce:animate-none"
      />
      {/* A phone's header holds the icon alone; the link's name still says how many. */}
      <span className="tabular-nums max-sm:hidden">{formatCount(jobs.length)}</span>
    </Link>
  );
}
