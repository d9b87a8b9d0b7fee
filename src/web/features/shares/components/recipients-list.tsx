import type { ReactNode } from "react";
import { formatCount, formatDateTime, formatRelative } from "@/browser/format";
import type { ShareRecipient } from "@/contract/shares";

const when = (iso: string | null) =>
  iso ? (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  ) : (
    "—"
  );

/** Each recipient: when their link was mailed, and what they did with it. */
export function RecipientsList<R extends ShareRecipient>({
  recipients,
  fileCount,
  extra,
}: {
  recipients: readonly R[];
  fileCount: number;
  /** More to say per recipient (the receipt's verified mark). */
  extra?(r: R): ReactNode;
}) {
  if (recipients.length === 0)
    return <p className="text-sm text-muted-foreground">No recipients: only the plain link.</p>;
  return (
    <ul className="grid gap-2">
      {recipients.map((r) => (
        <li
          key={r.id}
          className="grid gap-x-4 gap-y-1 rounded-md border border-border p-3 text-sm sm:grid-cols-[minmax(0,1fr)_auto]"
        >
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <span className="min-w-0 truncate font-medium">{r.email}</span>
            {extra?.(r)}
          </div>
          <dl className="flex flex-wrap gap-x-4 gap-y-1 text-muted-foreground">
            <div className="flex gap-1">
              <dt>Mailed</dt>
              <dd className="text-foreground">{when(r.sentAt)}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Views</dt>
              <dd className="text-foreground">{formatCount(r.views)}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Files</dt>
              <dd className="text-foreground">
                {formatCount(r.filesDownloaded)} / {formatCount(fileCount)}
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>Last download</dt>
              <dd className="text-foreground">{when(r.lastDownloadAt)}</dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}
