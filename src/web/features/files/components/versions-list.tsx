import { useQuery } from "@tanstack/react-query";
import { HistoryIcon } from "lucide-react";
import { useState } from "react";
import type { FileEntry, FileVersion } from "@/contract/files";
import { Alert, AlertDescription, AlertTitle } from "../../../components/ui/alert";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "../../../components/ui/alert-dialog";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Skeleton } from "../../../components/ui/skeleton";
import { describeError } from "../../../lib/api-client";
import { formatBytes, formatDateTime } from "../../../lib/format";
import { toast } from "../../../stores/toast-store";
import { versionsQueryOptions } from "../api/list-versions";
import { useRestoreVersionMutation } from "../api/restore-version";

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
  const [problem, setProblem] = useState<string | null>(null);

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
      <Alert tone="danger">
        <div className="grid gap-2">
          <AlertTitle>Could not load the versions</AlertTitle>
          <AlertDescription>{describeError(versions.error)}</AlertDescription>
          <Button size="sm" variant="outline" onClick={() => void versions.refetch()}>
            Try again
          </Button>
        </div>
      </Alert>
    );

  const onRestore = () => {
    if (!confirming) return;
    setProblem(null);
    restore.mutate(
      { versionId: confirming.id, path: entry.path },
      {
        onSuccess: () => {
          toast({
            title: `Restored the version from ${formatDateTime(confirming.createdAt)}`,
            description: "The content it replaced is kept as a version.",
          });
          setConfirming(null);
        },
        onError: (error) => setProblem(describeError(error)),
      },
    );
  };

  return (
    <>
      <ol className="grid gap-1" aria-label={`Versions of ${entry.name}`}>
        <li className="flex items-center gap-3 rounded-md border border-border p-2.5 text-sm">
          <div className="grid min-w-0 flex-1">
            <span className="font-medium">{formatDateTime(entry.modifiedAt)}</span>
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
              <span>{formatDateTime(version.createdAt)}</span>
              <span className="text-xs text-muted-foreground">
                {formatBytes(version.sizeBytes)}
              </span>
            </div>
            {canWrite && (
              <Button
                size="sm"
                variant="outline"
                onClick={() => setConfirming(version)}
                aria-label={`Restore the version from ${formatDateTime(version.createdAt)}`}
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
      <AlertDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && !restore.isPending && setConfirming(null)}
      >
        <AlertDialogContent>
          <AlertDialogTitle>Restore this version?</AlertDialogTitle>
          <AlertDialogDescription>
            The version from {confirming ? formatDateTime(confirming.createdAt) : ""} becomes the
            live content of “{entry.name}”. The current content is kept as a version.
          </AlertDialogDescription>
          {problem && (
            <p role="alert" className="text-sm text-destructive-text">
              {problem}
            </p>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={restore.isPending}>Cancel</AlertDialogCancel>
            <AlertDialogAction
              // Stays open until the service answers, so a failure is shown where it was asked.
              onClick={(e) => {
                e.preventDefault();
                onRestore();
              }}
              disabled={restore.isPending}
            >
              {restore.isPending ? "Restoring…" : "Restore version"}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
