import { useQuery } from "@tanstack/react-query";
import { ColumnsIcon, EyeIcon, HistoryIcon } from "lucide-react";
import { useId, useState } from "react";
import { formatBytes, formatExactAndRelative, formatExactDateTime } from "@/browser/format";
import type { FileEntry, FileVersion } from "@/contract/files";
import { ConfirmDialog } from "@/web/components/confirm-dialog";
import { LoadError } from "@/web/components/load-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { Skeleton } from "@/web/components/ui/skeleton";
import { versionsQueryOptions } from "@/web/features/files/api/list-versions";
import { useRestoreVersionMutation } from "@/web/features/files/api/restore-version";
import { canView, viewerTarget } from "@/web/features/files/state/viewable";
import { useViewerStore, type ViewerTarget } from "@/web/features/viewer";
import { useNow } from "@/web/lib/use-now";
import { toast } from "@/web/stores/toast-store";

const LIVE = "live";

/** View one version, and tick it to compare with another. */
function ViewControls({
  target,
  picked,
  onPick,
}: {
  target: ViewerTarget;
  picked: boolean;
  onPick(picked: boolean): void;
}) {
  const name = target.title ?? "the live content";
  const id = useId();
  return (
    <>
      <span className="flex items-center gap-1 text-xs text-muted-foreground">
        <NativeCheckbox
          id={id}
          checked={picked}
          onChange={(e) => onPick(e.target.checked)}
          aria-label={`Compare ${name}`}
        />
        <label htmlFor={id}>Compare</label>
      </span>
      <Button
        size="icon-sm"
        variant="ghost"
        aria-label={`View ${name}`}
        title="View"
        onClick={() => useViewerStore.getState().show({ target })}
      >
        <EyeIcon aria-hidden="true" />
      </Button>
    </>
  );
}

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
  // Two versions (or one and the live content) to compare; a third tick replaces the first.
  const [picked, setPicked] = useState<string[]>([]);
  const now = useNow(10_000);
  const viewable = canView(entry);
  const targetOf = (id: string): ViewerTarget => {
    const version = versions.data?.find((v) => v.id === id);
    return version
      ? viewerTarget(workspaceId, entry, {
          id: version.id,
          title: formatExactDateTime(version.createdAt),
        })
      : { ...viewerTarget(workspaceId, entry), title: `${entry.name} (live)` };
  };
  const pick = (id: string) => (on: boolean) =>
    setPicked((p) =>
      on ? [...p.filter((x) => x !== id), id].slice(-2) : p.filter((x) => x !== id),
    );
  const compare = () => {
    const [a, b] = picked;
    if (a && b) useViewerStore.getState().show({ target: targetOf(a), compareWith: targetOf(b) });
  };

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
          {viewable && (
            <ViewControls
              target={targetOf(LIVE)}
              picked={picked.includes(LIVE)}
              onPick={pick(LIVE)}
            />
          )}
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
            {viewable && (
              <ViewControls
                target={targetOf(version.id)}
                picked={picked.includes(version.id)}
                onPick={pick(version.id)}
              />
            )}
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
      {viewable && versions.data.length > 0 && (
        <Button variant="outline" size="sm" disabled={picked.length < 2} onClick={compare}>
          <ColumnsIcon aria-hidden="true" />
          {picked.length < 2 ? "Tick two to compare" : "Compare the two ticked"}
        </Button>
      )}
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
