import { useQuery } from "@tanstack/react-query";
import { HistoryIcon } from "lucide-react";
import { useState } from "react";
import { formatBytes, formatExactAndRelative, formatExactDateTime } from "@/browser/format";
import type { FileEntry, FileVersion } from "@/contract/files";
import { ConfirmDialog } from "@/web/components/confirm-dialog";
import { LoadError } from "@/web/components/load-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { versionsQueryOptions } from "@/web/features/files/api/list-versions";
import { useRestoreVersionMutation } from "@/web/features/files/api/restore-version";
import { useNow } from "@/web/lib/use-now";
import { toast } from "@/web/stores/toast-store";

/** A file's kept versions, newest first, under the live content; any can be made live again. */
export function VersionsList({
  workspaceId,
  entry,
  canWrite,
}: {
  workspaceId: string;
  entry: FileEntry;
  canWrite: boolean;
}) {
  const versions = useQuery(versionsQueryOptions(workspaceId, entry.path));
  const restore = useRestoreVersionMutation();
  const [confirming, setConfirming] = useState<FileVersion | null>(null);
  const now = useNow(10_000);

  if (versions.isPending)
    return (
      <div className="grid gap-2" role="status" aria-label="Loading versions">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-12" />
        ))}
      </div>
    );
  if (versions.isError)
    return (
      <LoadError
        title="Could not load the versions"
        error={versions.error}
        onRetry={() => void versions.refetch()}
      />
    );

  return (
    <>
      <ol className="grid gap-1" aria-label={`Versions of ${entry.name}`}>
        <li className="flex items-center gap-3 rounded-md border border-border p-2.5 text-sm">
          <div className="grid min-w-0 flex-1">
            <span className="font-medium">{formatExactAndRelative(entry.modifiedAt, now)}</span>
            <span className="text-xs text-muted-foreground">{formatBytes(entry.sizeBytes)}</span>
          </div>
          <Badge>Live</Badge>
        </li>
        {versions.data.map((version) => (
          <li
            key={version.id}
            className="flex items-center gap-3 rounded-md border border-border p-2.5 text-sm"
          >
            <div className="grid min-w-0 flex-1">
              <span>{formatExactAndRelative(version.createdAt, now)}</span>
              <span className="text-xs text-muted-foreground">
                {formatBytes(version.sizeBytes)}
              </span>
            </div>
            {canWrite && (
              <Button
                size="sm"
                variant="outline"
                onClick={() => setConfirming(version)}
                aria-label={`Restore the version from ${formatExactDateTime(version.createdAt)}`}
              >
                <HistoryIcon aria-hidden="true" />
                Restore
              </Button>
            )}
          </li>
        ))}
      </ol>
      {versions.data.length === 0 && (
        <p className="text-sm text-muted-foreground">
          No earlier versions. When new content replaces this file's, the previous content is kept
          here.
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title="Restore this version?"
          description={`The version from ${formatExactDateTime(confirming.createdAt)} becomes the live content of “${entry.name}”. The current content is kept as a version.`}
          confirmLabel="Restore version"
          pendingLabel="Restoring…"
          onConfirm={async () => {
            await restore.mutateAsync({ versionId: confirming.id, path: entry.path });
            toast({
              title: `Restored the version from ${formatExactDateTime(confirming.createdAt)}`,
              description: "The content it replaced is kept as a version.",
            });
          }}
          onClose={() => setConfirming(null)}
        />
      )}
    </>
  );
}
