import type { UseQueryResult } from "@tanstack/react-query";
import { FolderOpenIcon } from "lucide-react";
import type { ComponentProps } from "react";
import type { FileListing } from "@/contract/files";
import { parentOf } from "@/contract/rules";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { Button } from "@/web/components/ui/button";
import { SkeletonRows } from "@/web/components/ui/skeleton";
import { fileDropProps } from "@/web/features/files/hooks/use-drag-move";
import { FileList } from "./file-list";

/** The folder as it stands: loading, failed, empty, or its list. */
export function FolderContents({
  first,
  waiting,
  onOpenFolder,
  ...list
}: Omit<ComponentProps<typeof FileList>, "firstPage"> & {
  first: UseQueryResult<FileListing>;
  /** Showing the skeleton although the page is here (an order the service ignored). */
  waiting: boolean;
  onOpenFolder(path: string, fromKeyboard: boolean): void;
}) {
  const { path } = list.view;
  if (first.isPending || waiting)
    return (
      <SkeletonRows
        label="Loading the folder"
        rows={12}
        rowClassName="h-7"
        className="flex-1 content-start p-4"
      />
    );
  if (first.isError)
    return (
      <div className="flex-1 p-4">
        <LoadError
          title={`Could not open ${path ? `“${path}”` : "the workspace root"}`}
          error={first.error}
          onRetry={() => void first.refetch()}
        >
          {path && (
            <Button
              size="sm"
              variant="outline"
              // A click from the keyboard (Enter, Space) has no pointer detail.
              onClick={(e) => onOpenFolder(parentOf(path), e.detail === 0)}
            >
              Go to the parent folder
            </Button>
          )}
        </LoadError>
      </div>
    );
  if (first.data.total === 0) {
    const canWrite = first.data.access === "write";
    return (
      <div
        className="flex-1 data-drop-target:ring-2 data-drop-target:ring-inset data-drop-target:ring-primary"
        {...fileDropProps(path, canWrite ? list.actions.onDropFiles : undefined)}
      >
        <EmptyState icon={FolderOpenIcon} title="This folder is empty">
          {canWrite
            ? "Drop files or folders here, or use Upload; add a folder with New folder."
            : "Files arrive through uploads and the command-line tools."}
        </EmptyState>
      </div>
    );
  }
  return <FileList firstPage={first.data} {...list} />;
}
