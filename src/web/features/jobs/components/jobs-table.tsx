import type { ReactNode } from "react";
import { formatBytes, formatCount, formatDateTime, formatRelative } from "@/browser/format";
import { estimate, formatDuration, type Sample } from "@/browser/rate";
import { DataTable, type DataTableColumn, rowActionClass } from "@/web/components/ui/data-table";
import { describeTarget, type Job, kindLabel, progressOf } from "@/web/features/jobs/job-model";
import { cn } from "@/web/lib/cn";
import { JobActions } from "./job-actions";
import { JobProgress } from "./job-progress";
import { JobStatusBadge } from "./job-status";

const ROW_HEIGHT = 56;

/** Rate and ETA from the readings of this tab's polls; "—" until two readings exist. */
export function jobEstimate(job: Job, samples: ReadonlyMap<string, Sample[]>) {
  const progress = progressOf(job);
  const { rate, etaSeconds } = estimate(samples.get(job.id) ?? [], progress.total);
  return {
    rate:
      rate === null
        ? "—"
        : progress.unit === "bytes"
          ? `${formatBytes(Math.round(rate))}/s`
          : `${formatCount(Math.round(rate))} items/s`,
    eta: etaSeconds === null ? "—" : formatDuration(etaSeconds),
  };
}

export function JobsTable({
  jobs,
  samples,
  selectedId,
  onOpen,
  loading,
  empty,
}: {
  jobs: Job[];
  samples: ReadonlyMap<string, Sample[]>;
  selectedId: string | null;
  onOpen(id: string): void;
  loading?: boolean;
  empty?: ReactNode;
}) {
  const columns: DataTableColumn<Job>[] = [
    {
      id: "job",
      header: "Job",
      primary: true,
      cell: (job) => (
        <button
          type="button"
          className={cn("grid min-w-0 text-left", rowActionClass)}
          onClick={() => onOpen(job.id)}
          aria-haspopup="dialog"
        >
          <span className="truncate font-medium">{kindLabel(job)}</span>
          <span className="truncate text-xs text-muted-foreground">{describeTarget(job)}</span>
        </button>
      ),
    },
    {
      id: "progress",
      header: "Progress",
      className: "w-32 sm:w-44",
      cell: (job) => <JobProgress job={job} label={`Progress of ${kindLabel(job)}`} />,
    },
    {
      id: "rate",
      header: "Rate",
      hideBelow: "lg",
      className: "w-36 text-right tabular-nums text-muted-foreground",
      cell: (job) => jobEstimate(job, samples).rate,
    },
    {
      id: "eta",
      header: "Time left",
      hideBelow: "md",
      className: "w-24 text-right tabular-nums text-muted-foreground",
      cell: (job) => jobEstimate(job, samples).eta,
    },
    {
      id: "started",
      header: "Started",
      hideBelow: "lg",
      className: "w-32 text-muted-foreground",
      cell: (job) => {
        const at = job.startedAt ?? job.createdAt;
        return (
          <time dateTime={at} title={formatDateTime(at)}>
            {formatRelative(at)}
          </time>
        );
      },
    },
    {
      id: "status",
      header: "Status",
      hideBelow: "sm",
      className: "w-32",
      cell: (job) => <JobStatusBadge status={job.status} />,
    },
    {
      id: "actions",
      header: <span className="sr-only">Actions</span>,
      className: "w-28 text-right",
      cell: (job) => <JobActions job={job} className="relative z-[1]" />,
    },
  ];
  return (
    <DataTable
      label="Jobs"
      columns={columns}
      rows={jobs}
      rowKey={(job) => job.id}
      rowHeight={ROW_HEIGHT}
      isCurrent={(job) => job.id === selectedId}
      loading={loading}
      loadingLabel="Loading the jobs"
      empty={empty}
    />
  );
}
