/** @jsxImportSource preact */
import { useMemo } from "preact/hooks";
import { formatBytes, formatCount } from "@/browser/format";
import { baseName, parentOf } from "@/contract/rules";
import type { Picked, SelectionCheck } from "./portal-model";

/** Rows drawn at first and per "Show more": 10,000 picked files need not all be drawn to send. */
export const ROWS_PER_STEP = 200;

/**
 * The files picked so far, refused ones first with why (the page's own check, or the service's
 * refusal in `fileErrors`), each removable. The first `shown` are drawn (the form keeps the
 * count, so a list emptied and filled again keeps it too).
 */
export function PickedList({
  picked,
  check,
  fileErrors,
  shown,
  onShowMore,
  onRemove,
  onRemoveAll,
}: {
  picked: readonly Picked[];
  check: SelectionCheck;
  fileErrors: ReadonlyMap<string, string>;
  shown: number;
  onShowMore: () => void;
  onRemove: (path: string, row: number) => void;
  onRemoveAll: () => void;
}) {
  // Refused files first: they are what the sender has to act on.
  const rows = useMemo(
    () =>
      [...picked].sort((a, b) => Number(check.files.has(b.path)) - Number(check.files.has(a.path))),
    [picked, check],
  );
  return (
    <div className="selection">
      <div className="bar">
        <span className="meta">
          {formatCount(picked.length)} file{picked.length === 1 ? "" : "s"} ·{" "}
          {formatBytes(check.bytes)}
        </span>
        <button type="button" onClick={onRemoveAll}>
          Remove all
        </button>
      </div>
      {check.upload && (
        <p className="error" data-testid="selection-problem">
          {check.upload.message}
        </p>
      )}
      <ul className="rows">
        {rows.slice(0, shown).map((p, row) => {
          const problem = check.files.get(p.path)?.message ?? fileErrors.get(p.path);
          return (
            <li key={p.path} className={problem ? "refused" : undefined}>
              <div className="row-main">
                <span className="path">{baseName(p.path)}</span>
                {p.path.includes("/") && <span className="folder">{parentOf(p.path)}</span>}
                {problem && <span className="error state">{problem}</span>}
              </div>
              <span className="size">{formatBytes(p.file.size)}</span>
              <button
                type="button"
                aria-label={`Remove ${p.path}`}
                onClick={() => onRemove(p.path, row)}
              >
                Remove
              </button>
            </li>
          );
        })}
      </ul>
      {shown < rows.length && (
        <button type="button" onClick={onShowMore}>
          Show {Math.min(ROWS_PER_STEP, rows.length - shown)} more ({formatCount(shown)} of{" "}
          {formatCount(rows.length)} shown)
        </button>
      )}
    </div>
  );
}
