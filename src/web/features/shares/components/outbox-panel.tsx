import { formatDateTime, formatRelative } from "@/browser/format";
import type { OutboxMessage } from "@/contract/mail";
import { CopyButton } from "@/web/components/copy-button";
import { LoadError } from "@/web/components/load-error";
import { Badge } from "@/web/components/ui/badge";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useOutboxQuery } from "../api/list-outbox";

const statusLabel: Record<OutboxMessage["status"], string> = {
  waiting: "Waiting (no mail server)",
  queued: "Queued",
  sent: "Sent",
  failed: "Failed",
};

/**
 * The mails with links: without a mail server (SMTP_URL) they wait here, and their links are
 * handed on by hand.
 */
export function OutboxPanel({ workspaceId }: { workspaceId: string }) {
  const outbox = useOutboxQuery(workspaceId, true);
  return (
    <section aria-labelledby="outbox-title" className="grid gap-3 border-b border-border p-4">
      <h2 id="outbox-title" className="font-medium">
        Outbox
      </h2>
      {outbox.isPending ? (
        <Skeleton className="h-24" />
      ) : outbox.isError ? (
        <LoadError
          title="Could not load the outbox"
          error={outbox.error}
          onRetry={() => void outbox.refetch()}
        />
      ) : outbox.data.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No mails yet.</p>
      ) : (
        <ul className="grid max-h-80 gap-2 overflow-auto">
          {outbox.data.items.map((m) => (
            <li
              key={m.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-border p-2 text-sm"
            >
              <span className="min-w-0 flex-[1_1_12rem] truncate font-medium">{m.to}</span>
              <span className="min-w-0 flex-[1_1_12rem] truncate">{m.subject}</span>
              <Badge>{statusLabel[m.status]}</Badge>
              <time
                dateTime={m.createdAt}
                title={formatDateTime(m.createdAt)}
                className="text-muted-foreground"
              >
                {formatRelative(m.createdAt)}
              </time>
              {m.error && <span className="w-full text-destructive-text">{m.error}</span>}
              {m.link && <CopyButton text={m.link} label={`Copy the link for ${m.to}`} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
