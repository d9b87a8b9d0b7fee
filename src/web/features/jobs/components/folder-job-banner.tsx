import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { formatCount } from "@/browser/format";
import { bulkJobQueryOptions } from "@/web/features/jobs/api/get-bulk-job";
import { useFollowedJobs } from "@/web/features/jobs/follow-job";
import { kindLabel, progressOf } from "@/web/features/jobs/job-model";
import { JobProgress } from "./job-progress";

/** One line per job this tab started on the folder's entries, while it runs. */
export function FolderJobBanner({ workspaceId, folder }: { workspaceId: string; folder: string }) {
  const followed = useFollowedJobs((s) => s.followed);
  const ids = Object.entries(followed)
    .filter(([, f]) => f.folder === folder)
    .map(([id]) => id);
  if (ids.length === 0) return null;
  return (
    <div className="grid gap-1 border-b border-border bg-muted/40 px-4 py-2">
      {ids.map((id) => (
        <FolderJobLine key={id} workspaceId={workspaceId} id={id} />
      ))}
    </div>
  );
}

function FolderJobLine({ workspaceId, id }: { workspaceId: string; id: string }) {
  // followBulkJob polls this job; the line only reads what it fetched.
  const { data: job } = useQuery({
    ...bulkJobQueryOptions(workspaceId, id),
    refetchInterval: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!job) return null;
  const { done, total } = progressOf(job);
  return (
    <section
      aria-label={kindLabel(job)}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm"
    >
      <p aria-live="polite" className="min-w-0">
        <span className="font-medium">{kindLabel(job)}:</span>{" "}
        {total === null
          ? "counting the items…"
          : `${formatCount(done)} of ${formatCount(total)} done`}
      </p>
      <JobProgress
        job={job}
        label={`Progress of ${kindLabel(job)}`}
        className="w-40 flex-1 sm:flex-none"
      />
      <Link
        to="/jobs"
        search={{ job: id }}
        className="text-link underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
      >
        View job
      </Link>
    </section>
  );
}
