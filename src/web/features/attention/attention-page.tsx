import { BellDotIcon } from "lucide-react";
import { formatCount } from "@/browser/format";
import { attentionSections } from "@/contract/attention-rules";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { SkeletonRows } from "@/web/components/ui/skeleton";
import { useNow } from "@/web/lib/use-now";
import { useAttentionQuery } from "./api/get-attention";
import { AttentionSectionCard, sectionSpecs } from "./components/attention-sections";

/**
 * Everything that needs a member, across areas, each entry a link to where it is dealt with.
 * Live: the summary is read every few seconds while the console is in view, and the decisions
 * made elsewhere in the console read it again at once.
 */
export function AttentionPage({ workspaceId }: { workspaceId: string }) {
  const { data, isPending, error, refetch, dataUpdatedAt } = useAttentionQuery(workspaceId);
  // Ages count from the latest reading too, so an entry that just arrived is never "in 5 s".
  const now = Math.max(useNow(30_000), dataUpdatedAt);
  const shown = data ? attentionSections.filter((name) => data[name] !== undefined) : [];
  const hidden = data ? attentionSections.filter((name) => data[name] === undefined) : [];

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <PageHeader
        title="Needs attention"
        description={
          data && data.total > 0
            ? `${formatCount(data.total)} ${data.total === 1 ? "thing waits" : "things wait"} for you; this list keeps itself up to date`
            : "What waits for you across the workspace; this list keeps itself up to date"
        }
      />
      <div
        className="min-h-0 flex-1 overflow-y-auto p-3 sm:p-4"
        aria-live="polite"
        aria-busy={isPending}
      >
        {isPending ? (
          <SkeletonRows label="Loading what needs attention" rows={5} rowClassName="h-24" />
        ) : error && !data ? (
          <LoadError
            title="Could not load what needs attention"
            error={error}
            onRetry={() => void refetch()}
          />
        ) : data && data.total === 0 ? (
          <EmptyState icon={BellDotIcon} title="Nothing needs you right now">
            Uploads to review, downloads that failed verification, shares about to expire unopened,
            endpoints disabled by failures and failed jobs appear here as they happen.
          </EmptyState>
        ) : (
          <div className="mx-auto grid max-w-3xl gap-3">
            {shown.map((name) => (
              <AttentionSectionCard key={name} name={name} section={data![name]!} now={now} />
            ))}
          </div>
        )}
        {hidden.length > 0 && (
          <p className="mx-auto mt-4 max-w-3xl text-xs text-muted-foreground">
            This key's scopes do not show:{" "}
            {hidden.map((name) => sectionSpecs[name].title.toLowerCase()).join(", ")}.
          </p>
        )}
      </div>
    </div>
  );
}
