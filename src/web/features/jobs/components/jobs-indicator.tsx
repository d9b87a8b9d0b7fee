import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useRouterState } from "@tanstack/react-router";
import { LoaderIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { formatCount } from "@/browser/format";
import { bulkJobQueryOptions } from "@/web/features/jobs/api/get-bulk-job";
import { operationQueryOptions } from "@/web/features/jobs/api/get-operation";
import { jobsKeys } from "@/web/features/jobs/api/jobs-keys";
import { callerReportsEnd, useStartedJobs } from "@/web/features/jobs/follow-job";
import { finishedReport, isActive, isBulk } from "@/web/features/jobs/job-model";
import { useActiveJobs } from "@/web/features/jobs/use-jobs";
import { filesKeys } from "@/web/lib/query-keys/files";
import { useWorkspaceId } from "@/web/stores/session-store";
import { toast } from "@/web/stores/toast-store";

/** What the tracker remembers of a job it saw running. */
interface Seen {
  bulk: boolean;
  createdAt: string;
}

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
  const { jobs, more, ready, checkedAt, shows } = useActiveJobs(workspaceId);
  const started = useStartedJobs((s) => s.started);
  const previous = useRef<Map<string, Seen> | null>(null);
  const onJobsRef = useRef(onJobs);
  onJobsRef.current = onJobs;

  // A job started here: read the active lists now rather than at the next poll (there may be none).
  const startedCount = Object.keys(started).length;
  useEffect(() => {
    if (startedCount > 0)
      void queryClient.invalidateQueries({ queryKey: jobsKeys.all(workspaceId) });
  }, [startedCount, queryClient, workspaceId]);

  useEffect(() => {
    if (!ready) return;
    const current = new Map<string, Seen>(
      jobs.map((j) => [j.id, { bulk: isBulk(j), createdAt: j.createdAt }]),
    );
    const ended = new Map<string, boolean>();
    // A job no longer listed has ended, unless the lists would not show it anyway (more jobs
    // are active than a page holds): then it is still presumed running, and checked again at
    // the next reading. Taking that absence for an end refetched every list without pause.
    for (const [id, seen] of previous.current ?? []) {
      if (current.has(id)) continue;
      if (shows(seen)) ended.set(id, seen.bulk);
      else current.set(id, seen);
    }
    previous.current = current;
    const startedHere = useStartedJobs.getState();
    for (const [id, s] of Object.entries(startedHere.started)) {
      if (current.has(id)) startedHere.remove(id);
      // Not running when the lists were read after it started: it ended between two polls.
      else if (checkedAt > s.at && shows(s)) {
        startedHere.remove(id);
        ended.set(id, s.bulk);
      }
    }
    if (ended.size === 0) return;
    void queryClient.invalidateQueries({ queryKey: jobsKeys.all(workspaceId) });
    void queryClient.invalidateQueries({ queryKey: filesKeys.all(workspaceId) });
    for (const [id, bulk] of ended) {
      if (callerReportsEnd(id)) continue;
      const final = bulk
        ? queryClient.fetchQuery(bulkJobQueryOptions(workspaceId, id))
        : queryClient.fetchQuery(operationQueryOptions(workspaceId, id));
      final
        .then((done) => {
          // A list read just before the job was created: look again at the next reading.
          if (isActive(done)) return useStartedJobs.getState().add(done);
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
  }, [jobs, ready, checkedAt, shows, queryClient, workspaceId, navigate]);

  if (jobs.length === 0) return null;
  const count = `${formatCount(jobs.length)}${more ? "+" : ""}`;
  const label = `${count} job${jobs.length === 1 && !more ? "" : "s"} running`;
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
      <span className="tabular-nums max-sm:hidden">{count}</span>
    </Link>
  );
}
