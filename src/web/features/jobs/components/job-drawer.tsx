import type { ReactNode } from "react";
import { formatBytes, formatCount, formatExactDateTime } from "@/browser/format";
import type { Sample } from "@/browser/rate";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/web/components/ui/sheet";
import {
  describeTarget,
  isBulk,
  type Job,
  kindLabel,
  progressOf,
} from "@/web/features/jobs/job-model";
import { JobActions } from "./job-actions";
import { JobProgress } from "./job-progress";
import { JobStatusBadge } from "./job-status";
import { jobEstimate } from "./jobs-table";

/** Items named in the drawer; a move or copy holds at most 200, so this is nearly all of them. */
const ITEMS_SHOWN = 100;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 py-1.5 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/** One job in full: its counters, times, what it works on, and every failure with its reason. */
export function JobDrawer({
  job,
  samples,
  onClose,
}: {
  job: Job;
  samples: ReadonlyMap<string, Sample[]>;
  onClose(): void;
}) {
  const progress = progressOf(job);
  const { rate, eta } = jobEstimate(job, samples);
  const count = (n: number) => (progress.unit === "bytes" ? formatBytes(n) : formatCount(n));
  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent>
        <div className="grid gap-1">
          <SheetTitle>{kindLabel(job)}</SheetTitle>
          <SheetDescription>{describeTarget(job)}</SheetDescription>
        </div>
        <div className="flex items-center gap-3">
          <JobStatusBadge status={job.status} />
          <JobActions job={job} />
        </div>
        <JobProgress job={job} label={`Progress of ${kindLabel(job)}`} />
        <dl className="divide-y divide-border">
          <Row label="Done">
            {count(progress.done)}
            {progress.total === null ? " (still counting)" : ` of ${count(progress.total)}`}
          </Row>
          {isBulk(job) ? (
            <Row label="Failed">{formatCount(job.failed)}</Row>
          ) : (
            <>
              <Row label="Files">
                {formatCount(job.filesDone)} of {formatCount(job.filesTotal)}
              </Row>
              <Row label="Destination">{job.destination || "Workspace root"}</Row>
              <Row label="Overwrite">{job.overwrite ? "Yes" : "No"}</Row>
            </>
          )}
          <Row label="Rate">{rate}</Row>
          <Row label="Time left">{eta}</Row>
          <Row label="Created">{formatExactDateTime(job.createdAt)}</Row>
          <Row label="Started">{formatExactDateTime(job.startedAt)}</Row>
          <Row label="Finished">{formatExactDateTime(job.finishedAt)}</Row>
          {job.error && <Row label="Error">{job.error}</Row>}
        </dl>
        {!isBulk(job) && job.items.length > 0 && (
          <section aria-label="Items" className="grid gap-1">
            <h3 className="text-sm font-medium">Items</h3>
            <ul className="grid gap-0.5 text-sm">
              {job.items.slice(0, ITEMS_SHOWN).map((item) => (
                <li key={item.path} className="flex gap-2">
                  <span className="min-w-0 flex-1 truncate" title={item.path}>
                    {item.path}
                  </span>
                  <span className="shrink-0 tabular-nums text-muted-foreground">
                    {item.type === "folder" ? "folder" : formatBytes(item.bytes)}
                  </span>
                </li>
              ))}
            </ul>
            {job.items.length > ITEMS_SHOWN && (
              <p className="text-sm text-muted-foreground">
                and {formatCount(job.items.length - ITEMS_SHOWN)} more
              </p>
            )}
          </section>
        )}
        {isBulk(job) && job.failures.length > 0 && (
          <section aria-label="Failures" className="grid gap-1">
            <h3 className="text-sm font-medium">
              Failures
              {job.failed > job.failures.length &&
                ` (the first ${formatCount(job.failures.length)} of ${formatCount(job.failed)})`}
            </h3>
            <ul className="grid gap-2 text-sm">
              {job.failures.map((f) => (
                <li key={`${f.target}\u0000${f.code}`} className="grid">
                  <span className="break-all font-medium">{f.target}</span>
                  <span className="text-muted-foreground">
                    {f.message} <code className="text-xs">({f.code})</code>
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </SheetContent>
    </Sheet>
  );
}
