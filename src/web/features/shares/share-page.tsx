import { Link } from "@tanstack/react-router";
import { PlayIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { formatBytes, formatCount, formatDateTime } from "@/browser/format";
import { mimeFromName } from "@/browser/media-type";
import { baseName } from "@/contract/rules";
import type { Share } from "@/contract/shares";
import { ConfirmDialog } from "@/web/components/confirm-dialog";
import { CopyButton } from "@/web/components/copy-button";
import { LoadError } from "@/web/components/load-error";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { mediaKindOf, useViewerStore } from "@/web/features/viewer";
import { cn } from "@/web/lib/cn";
import { useShareQuery } from "./api/get-share";
import { useRevokeShareMutation } from "./api/revoke-share";
import { CommentThread } from "./components/comment-thread";
import { ExtendDialog } from "./components/extend-dialog";
import { ReceiptViewer } from "./components/receipt-viewer";
import { RecipientsList } from "./components/recipients-list";
import { ResendDialog } from "./components/resend-dialog";
import { ShareStatusBadge } from "./components/share-status";
import type { SharesSearch } from "./shares-search";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function ShareOverview({ workspaceId, share }: { workspaceId: string; share: Share }) {
  return (
    <div className="grid gap-6 p-4">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Fact label="Files">
          {formatCount(share.fileCount)}, {formatBytes(share.totalBytes)}
        </Fact>
        <Fact label="Expires">{formatDateTime(share.expiresAt)}</Fact>
        <Fact label="Downloads">
          {formatCount(share.downloadCount)}
          {share.maxDownloads === null ? " (no limit)" : ` of ${formatCount(share.maxDownloads)}`}
        </Fact>
        <Fact label="Views">{formatCount(share.viewCount)}</Fact>
        <Fact label="Password">{share.passwordProtected ? "Yes" : "No"}</Fact>
        <Fact label="Created">{formatDateTime(share.createdAt)}</Fact>
        {share.createdBy && <Fact label="By">{share.createdBy.name}</Fact>}
      </dl>
      {share.message && (
        <p className="whitespace-pre-wrap break-words rounded-md bg-muted p-3 text-sm">
          {share.message}
        </p>
      )}
      <section aria-labelledby="share-items" className="grid gap-2">
        <h2 id="share-items" className="font-medium">
          Items
        </h2>
        <ul className="grid gap-1 text-sm">
          {share.items.map((i) => (
            <li key={i.path} className="flex items-center gap-3">
              <span className="min-w-0 flex-1 truncate" title={i.path}>
                {i.path}
                {i.type === "folder" ? "/" : ""}
              </span>
              {i.type === "file" && mediaKindOf(mimeFromName(i.path)) !== null && (
                <Button
                  size="icon-sm"
                  variant="ghost"
                  aria-label={`Preview ${baseName(i.path)}`}
                  title="Preview"
                  onClick={() =>
                    useViewerStore.getState().show({
                      target: { workspaceId, path: i.path, sizeBytes: i.sizeBytes },
                    })
                  }
                >
                  <PlayIcon aria-hidden="true" />
                </Button>
              )}
              <span className="shrink-0 text-muted-foreground">
                {i.type === "folder" ? `${formatCount(i.fileCount)} files, ` : ""}
                {formatBytes(i.sizeBytes)}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="share-recipients" className="grid gap-2">
        <h2 id="share-recipients" className="font-medium">
          Recipients
        </h2>
        <RecipientsList recipients={share.recipients} fileCount={share.fileCount} />
      </section>
      <section aria-labelledby="share-comments" className="grid gap-2">
        <h2 id="share-comments" className="font-medium">
          Comments
        </h2>
        <CommentThread workspaceId={workspaceId} shareId={share.id} items={share.items} />
      </section>
    </div>
  );
}

type Open = "extend" | "resend" | "revoke" | null;

/** One share: its link and actions, what it holds, who got it, the comments, and its receipt. */
export function SharePage({
  workspaceId,
  shareId,
  view,
  listSearch,
}: {
  workspaceId: string;
  shareId: string;
  view: SharesSearch["view"];
  /** The list's filters, kept for the way back. */
  listSearch: SharesSearch;
}) {
  const share = useShareQuery(workspaceId, shareId);
  const revoke = useRevokeShareMutation();
  const [open, setOpen] = useState<Open>(null);
  const back = (
    <Link
      to="/shares"
      search={listSearch}
      className="text-sm text-link underline-offset-4 hover:underline"
    >
      ← All shares
    </Link>
  );
  if (share.isPending)
    return (
      <div className="grid gap-4 p-4">
        {back}
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-48" />
      </div>
    );
  if (share.isError)
    return (
      <div className="grid gap-4 p-4">
        {back}
        <LoadError
          title="Could not load the share"
          error={share.error}
          onRetry={() => void share.refetch()}
        />
      </div>
    );
  const s = share.data;
  const live = s.status !== "revoked";
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-auto">
      <div className="grid gap-3 border-b border-border px-4 py-3">
        {back}
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 break-words text-lg font-semibold">{s.title}</h1>
          <ShareStatusBadge status={s.status} />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {s.url ? (
            <>
              <code className="min-w-0 max-w-full truncate rounded bg-muted px-2 py-1 text-xs">
                {s.url}
              </code>
              <CopyButton text={s.url} label="Copy the share link" />
            </>
          ) : (
            <span className="text-sm text-muted-foreground">Personal links only</span>
          )}
          {live && (
            <>
              <Button size="sm" variant="outline" onClick={() => setOpen("extend")}>
                Extend…
              </Button>
              {s.recipients.length > 0 && (
                <Button size="sm" variant="outline" onClick={() => setOpen("resend")}>
                  Resend…
                </Button>
              )}
              <Button
                size="sm"
                variant="outline"
                className="text-destructive-text"
                onClick={() => setOpen("revoke")}
              >
                Revoke…
              </Button>
            </>
          )}
        </div>
      </div>
      <nav aria-label="Share views" className="flex gap-1 px-4 pt-3">
        {(
          [
            [undefined, "Share"],
            ["receipt", "Receipt"],
          ] as const
        ).map(([v, label]) => (
          <Link
            key={label}
            to="/shares"
            search={{ ...listSearch, share: shareId, view: v }}
            aria-current={view === v ? "page" : undefined}
            className={cn(
              "rounded-md px-3 py-1 text-sm font-medium text-muted-foreground hover:text-foreground",
              view === v && "bg-muted text-foreground",
            )}
          >
            {label}
          </Link>
        ))}
      </nav>
      {view === "receipt" ? (
        <ReceiptViewer workspaceId={workspaceId} shareId={s.id} />
      ) : (
        <ShareOverview workspaceId={workspaceId} share={s} />
      )}
      {open === "extend" && <ExtendDialog share={s} onClose={() => setOpen(null)} />}
      {open === "resend" && <ResendDialog share={s} onClose={() => setOpen(null)} />}
      {open === "revoke" && (
        <ConfirmDialog
          title={`Revoke “${s.title}”?`}
          description="Every link of this share stops working for good. The share and its receipt stay."
          confirmLabel="Revoke"
          pendingLabel="Revoking…"
          destructive
          onConfirm={() => revoke.mutateAsync(s.id)}
          onClose={() => setOpen(null)}
        />
      )}
    </div>
  );
}
