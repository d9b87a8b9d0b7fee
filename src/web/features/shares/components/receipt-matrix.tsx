import { useMemo, useState } from "react";
import { formatCount, formatDateTime } from "@/browser/format";
import { CELL, decodeRuns } from "@/contract/receipt-verdict";
import type { Receipt } from "@/contract/receipts";
import { Button } from "@/web/components/ui/button";
import { cn } from "@/web/lib/cn";

/** Files per page: a page reads at a glance and 10,000 files never render at once. */
const PAGE = 25;

const cellLook: Record<string, { label: string; className: string }> = {
  [CELL.verified]: { label: "Verified", className: "text-success" },
  [CELL.unchecked]: { label: "Downloaded, not checked", className: "text-warning" },
  [CELL.failed]: { label: "Failed verification", className: "text-destructive-text font-medium" },
  [CELL.none]: { label: "Not downloaded", className: "text-muted-foreground" },
};

/**
 * Who holds which file: a table of files (paged) by recipient (then the plain link), each cell
 * what that party's latest completed download of the file showed, and when.
 */
export function ReceiptMatrix({ receipt }: { receipt: Receipt }) {
  const [page, setPage] = useState(0);
  const { files, matrix, downloads } = receipt;
  const deciders = useMemo(
    () => matrix.map((m) => decodeRuns(m.decidedBy, files.length, -1)),
    [matrix, files.length],
  );
  const pages = Math.max(1, Math.ceil(files.length / PAGE));
  const first = Math.min(page, pages - 1) * PAGE;
  const shown = files.slice(first, first + PAGE);
  return (
    <div className="grid gap-2">
      {/* Focusable so a keyboard can scroll a matrix wider than the screen. */}
      <section
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region needs keyboard access
        tabIndex={0}
        aria-label="Files by recipient, scrolls sideways"
        className="overflow-x-auto rounded-md border border-border focus-visible:ring-2 focus-visible:ring-ring"
      >
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">
            Each recipient's latest completed download of each file, files {first + 1} to{" "}
            {first + shown.length} of {files.length}
          </caption>
          <thead>
            <tr className="border-b border-border bg-muted/50 text-left">
              <th scope="col" className="sticky left-0 bg-muted p-2 font-medium">
                File
              </th>
              {matrix.map((m) => (
                <th
                  key={m.recipientId ?? "plain"}
                  scope="col"
                  className="whitespace-nowrap p-2 font-medium"
                >
                  {m.email ?? "Plain link"}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((f, k) => {
              const i = first + k;
              return (
                <tr key={f.path} className="border-b border-border last:border-0">
                  <th
                    scope="row"
                    className="sticky left-0 max-w-40 truncate bg-card p-2 text-left font-normal sm:max-w-80"
                    title={f.path}
                  >
                    {f.path}
                  </th>
                  {matrix.map((m, p) => {
                    const look = cellLook[m.cells[i] ?? CELL.none]!;
                    const at = downloads[deciders[p]![i]!]?.completedAt ?? null;
                    return (
                      <td key={m.recipientId ?? "plain"} className="whitespace-nowrap p-2">
                        <span className={cn("block", look.className)}>{look.label}</span>
                        {at && (
                          <time dateTime={at} className="text-xs text-muted-foreground">
                            {formatDateTime(at)}
                          </time>
                        )}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      {pages > 1 && (
        <nav aria-label="Matrix pages" className="flex flex-wrap items-center gap-2 text-sm">
          <Button
            variant="outline"
            size="sm"
            disabled={first === 0}
            onClick={() => setPage(first / PAGE - 1)}
          >
            Previous files
          </Button>
          <span aria-live="polite">
            Files {formatCount(first + 1)}–{formatCount(first + shown.length)} of{" "}
            {formatCount(files.length)}
          </span>
          <Button
            variant="outline"
            size="sm"
            disabled={first + PAGE >= files.length}
            onClick={() => setPage(first / PAGE + 1)}
          >
            Next files
          </Button>
        </nav>
      )}
    </div>
  );
}
