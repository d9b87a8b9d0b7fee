import { type Job, percentOf } from "@/web/features/jobs/job-model";
import { cn } from "@/web/lib/cn";

/**
 * A job's progress as a progressbar; without a known total (a selection still being counted)
 * it has no value, which assistive technology reads as busy.
 */
export function JobProgress({
  job,
  label,
  className,
}: {
  job: Job;
  label: string;
  className?: string;
}) {
  const percent = percentOf(job);
  const failed = job.status === "failed" || job.status === "cancelled";
  return (
    <div className={cn("flex min-w-0 items-center gap-2", className)}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent === null ? "Counting…" : `${percent} %`}
        className="h-2 min-w-12 flex-1 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn(
            "h-full rounded-full transition-[width]",
            failed ? "bg-muted-foreground" : "bg-primary",
            percent === null && "w-1/3 animate-pulse",
          )}
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </div>
      <span className="w-10 shrink-0 text-right text-xs tabular-nums text-muted-foreground">
        {percent === null ? "—" : `${percent} %`}
      </span>
    </div>
  );
}
