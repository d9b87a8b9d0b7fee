import { formatCount } from "@/browser/format";
import { useWorkspaceId } from "@/web/stores/session-store";
import { useAttentionQuery } from "../api/get-attention";

/**
 * A count beside a navigation link: everything that needs attention, or one section's total
 * (Portals: the uploads awaiting review). Nothing while there is none, nothing to count (the
 * key cannot read that section) or the summary has not loaded; a failed read keeps the last.
 */
export function AttentionNavCount({ section }: { section?: "uploads" }) {
  const { data } = useAttentionQuery(useWorkspaceId());
  const count = section ? data?.[section]?.total : data?.total;
  if (!count) return null;
  const spoken = section === "uploads" ? "awaiting review" : "need attention";
  return (
    <span
      data-testid={`nav-count-${section ?? "attention"}`}
      className="ml-auto min-w-5 rounded-full bg-primary px-1.5 text-center text-xs font-medium leading-5 text-primary-foreground tabular-nums"
    >
      {formatCount(count)}
      <span className="sr-only"> {spoken}</span>
    </span>
  );
}
