import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { FolderOpenIcon } from "lucide-react";
import type { FileEntry } from "@/contract/files";
import type { FileSortField } from "@/contract/rules";
import { EmptyState } from "../../components/empty-state";
import { Alert, AlertDescription, AlertTitle } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Skeleton } from "../../components/ui/skeleton";
import { describeError } from "../../lib/api-client";
import { formatCount } from "../../lib/format";
import { parentOf } from "./api/create-folder";
import type { FolderView } from "./api/files-keys";
import { filesPageQueryOptions } from "./api/list-files";
import { Breadcrumbs } from "./components/breadcrumbs";
import { FileList } from "./components/file-list";
import { NewFolderButton } from "./components/new-folder-button";

export function FilesPage({ workspaceId, view }: { workspaceId: string; view: FolderView }) {
  const navigate = useNavigate({ from: "/files" });
  const first = useQuery(filesPageQueryOptions(workspaceId, view, 0));

  const openFolder = (path: string) =>
    void navigate({ search: (s) => ({ ...s, path: path || undefined }) });
  const onOpen = (entry: FileEntry) => {
    if (entry.type === "folder") openFolder(entry.path);
  };
  const onSort = (sort: FileSortField) =>
    void navigate({
      search: (s) => ({
        ...s,
        sort: sort === "name" ? undefined : sort,
        order: view.sort === sort && view.order === "asc" ? "desc" : undefined,
      }),
    });

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-wrap items-center gap-3 border-b border-border px-4 py-3">
        <h1 className="sr-only">Files</h1>
        <div className="min-w-0 flex-1">
          <Breadcrumbs path={view.path} />
          {first.data && (
            <p className="mt-0.5 text-xs text-muted-foreground" aria-live="polite">
              {formatCount(first.data.total)} item{first.data.total === 1 ? "" : "s"}
              {first.data.access === "read" && " · read-only"}
            </p>
          )}
        </div>
        {first.data?.access !== "read" && <NewFolderButton folder={view.path} />}
      </div>
      {first.isPending ? (
        <div
          className="grid gap-2 p-4"
          role="status"
          aria-busy="true"
          aria-label="Loading the folder"
        >
          {Array.from({ length: 12 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <Skeleton key={i} className="h-7" />
          ))}
        </div>
      ) : first.isError ? (
        <div className="p-4">
          <Alert tone="danger">
            <div className="grid gap-2">
              <AlertTitle>
                Could not open {view.path ? `“${view.path}”` : "the workspace root"}
              </AlertTitle>
              <AlertDescription>{describeError(first.error)}</AlertDescription>
              <div className="flex gap-2">
                <Button size="sm" variant="outline" onClick={() => void first.refetch()}>
                  Try again
                </Button>
                {view.path && (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => openFolder(parentOf(view.path))}
                  >
                    Go to the parent folder
                  </Button>
                )}
              </div>
            </div>
          </Alert>
        </div>
      ) : first.data.total === 0 ? (
        <EmptyState icon={FolderOpenIcon} title="This folder is empty">
          Create a folder, or send files here with a transfer.
        </EmptyState>
      ) : (
        <FileList
          key={`${view.path}|${view.sort}|${view.order}`}
          workspaceId={workspaceId}
          view={view}
          firstPage={first.data}
          onOpen={onOpen}
          onParent={() => view.path && openFolder(parentOf(view.path))}
          onSort={onSort}
        />
      )}
    </div>
  );
}
