import { useNavigate } from "@tanstack/react-router";
import { ListChecksIcon } from "lucide-react";
import { formatCount } from "@/browser/format";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { JobDrawer } from "./components/job-drawer";
import { JobsTable } from "./components/jobs-table";
import { RenderList } from "./components/render-list";
import { isActive } from "./job-model";
import type { JobsSearch } from "./jobs-search";
import { useJobCentre } from "./use-jobs";

/** Every running and recent job on the service: move, copy and bulk work, and media renders. */
export function JobsPage({ workspaceId, search }: { workspaceId: string; search: JobsSearch }) {
  const { jobs, samples, isPending, error, refetch } = useJobCentre(workspaceId);
  const navigate = useNavigate({ from: "/jobs" });
  const open = (job: string | undefined) => void navigate({ search: { job }, replace: !job });
  const running = jobs.filter(isActive).length;
  const selected = jobs.find((j) => j.id === search.job) ?? null;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <PageHeader
        title="Jobs"
        description={
          running > 0
            ? `${formatCount(running)} running; moves, copies, bulk work and media renders run on the service`
            : "Moves, copies, bulk work and media renders run on the service; closing the console does not stop them"
        }
      />
      {error ? (
        <div className="p-4">
          <LoadError title="Could not load the jobs" error={error} onRetry={() => void refetch()} />
        </div>
      ) : (
        <JobsTable
          jobs={jobs}
          samples={samples}
          selectedId={selected?.id ?? null}
          onOpen={open}
          loading={isPending}
          empty={
            <EmptyState icon={ListChecksIcon} title="No jobs yet">
              Moving, copying, and trashing or restoring many items at once start a job here.
            </EmptyState>
          }
        />
      )}
      <RenderList workspaceId={workspaceId} />
      {selected && <JobDrawer job={selected} samples={samples} onClose={() => open(undefined)} />}
    </div>
  );
}
