import { formatCount } from "@/browser/format";
import type { BulkSharesResult } from "@/contract/shares";

const shares = (n: number) => `${formatCount(n)} ${n === 1 ? "share" : "shares"}`;

/**
 * The toast after a bulk extend or revoke: how many were done and, for those refused, which
 * and why (by title where the list knows it), e.g. "Extended 3 shares; 1 could not be".
 */
export function bulkReport(
  verb: "Extended" | "Revoked",
  result: BulkSharesResult,
  titles: ReadonlyMap<string, string>,
) {
  const { done, failed } = result;
  const title =
    failed.length === 0
      ? `${verb} ${shares(done.length)}`
      : `${verb} ${shares(done.length)}; ${formatCount(failed.length)} could not be`;
  const description =
    failed.length === 0
      ? undefined
      : failed.map((f) => `${titles.get(f.shareId) ?? f.shareId}: ${f.message}`).join("; ");
  return { title, description, tone: done.length === 0 ? ("error" as const) : undefined };
}
