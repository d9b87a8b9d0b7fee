import { FilmIcon } from "lucide-react";
import { ApiError } from "@/browser/api-error";
import { formatBytes, formatDateTime } from "@/browser/format";
import type { RenderJob } from "@/contract/media";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { DataTable, type DataTableColumn } from "@/web/components/ui/data-table";
import { ProgressBar } from "@/web/components/ui/progress-bar";
import { useRendersQuery } from "../api/list-renders";

const KIND_NAMES: Record<string, string> = {
  proxy720: "Video proxy (720p)",
  waveform: "Waveform",
  contact_sheet: "Contact sheet",
};

/** A render's name for people; kinds a newer service adds read as they are. */
export const renderKindName = (job: Pick<RenderJob, "kind" | "page">) =>
  job.kind === "page" ? `PDF page ${job.page + 1}` : (KIND_NAMES[job.kind] ?? job.kind);

function RenderState({ job }: { job: RenderJob }) {
  if (job.status === "failed")
    return <span className="text-destructive">Failed: {job.error ?? "no reason given"}</span>;
  if (job.status === "ready")
    return <span>Ready{job.sizeBytes === null ? "" : `, ${formatBytes(job.sizeBytes)}`}</span>;
  if (job.status === "rendering")
    return (
      <ProgressBar
        percent={job.progress === null ? null : Math.round(job.progress * 100)}
        label={`Rendering ${renderKindName(job)}`}
        unknownText="Rendering"
      />
    );
  return (
    <span className="text-muted-foreground">
      {job.status === "queued" ? "Waiting" : job.status}
    </span>
  );
}

const columns: DataTableColumn<RenderJob>[] = [
  {
    id: "file",
    header: "File",
    primary: true,
    cell: (job) => (
      <span className="truncate" title={job.path ?? job.sha256}>
        {job.path ?? `Content ${job.sha256.slice(0, 12)}`}
      </span>
    ),
  },
  { id: "kind", header: "Rendition", className: "w-44", hideBelow: "md", cell: renderKindName },
  { id: "state", header: "State", className: "w-72", cell: (job) => <RenderState job={job} /> },
  {
    id: "when",
    header: "Asked",
    className: "w-44",
    hideBelow: "lg",
    cell: (job) => formatDateTime(job.createdAt),
  },
];

/**
 * The media renders the service runs in the background (one video transcode at a time), with
 * their progress and, for a failure, the reason ffmpeg gave.
 */
export function RenderList({ workspaceId }: { workspaceId: string }) {
  const renders = useRendersQuery(workspaceId);
  // A service of the interface without this extension: the section has nothing to show.
  if (renders.error instanceof ApiError && renders.error.status === 404) return null;
  return (
    // Not a named section: the table's scrolling region is the landmark, named the same.
    <section className="flex max-h-[45%] min-h-40 flex-col border-t border-border">
      <h2 className="px-4 pt-3 pb-1 font-medium text-sm">Media renders</h2>
      {renders.error ? (
        <div className="p-4">
          <LoadError
            title="Could not load the media renders"
            error={renders.error}
            onRetry={() => void renders.refetch()}
          />
        </div>
      ) : (
        <DataTable
          label="Media renders"
          columns={columns}
          rows={renders.data?.items ?? []}
          rowKey={(job) => job.id}
          rowHeight={44}
          readOnly
          loading={renders.isPending}
          loadingLabel="Loading media renders"
          empty={
            <EmptyState icon={FilmIcon} title="No media renders yet">
              Video and audio get a proxy, a waveform and a contact sheet when they land; PDFs get
              pages when first viewed.
            </EmptyState>
          }
        />
      )}
    </section>
  );
}
