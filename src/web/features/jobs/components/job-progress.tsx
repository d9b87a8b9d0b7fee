import { ProgressBar } from "@/web/components/ui/progress-bar";
import { type Job, percentOf } from "@/web/features/jobs/job-model";

/** A job's progress; a selection still being counted has no total yet. */
export function JobProgress({
  job,
  label,
  className,
}: {
  job: Job;
  label: string;
  className?: string;
}) {
  return (
    <ProgressBar
      percent={percentOf(job)}
      label={label}
      unknownText="Counting…"
      stopped={job.status === "failed" || job.status === "cancelled"}
      className={className}
    />
  );
}
